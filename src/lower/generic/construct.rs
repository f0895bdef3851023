//! Phase 1: the compute construct itself. A `target` whose block is a
//! `teams` construct is merged with it, the construct's clauses are
//! checked against what generic mode lowers, and its structured block is
//! found (and refused when missing or unparsable) before anything reads it.

use super::roles::top_clause_ok;
use super::syntax::{node_at, only_statement};
use super::{kind_of, not_supported, Ctx};
use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, Model};
use crate::front::c::Node;
use crate::front::{Attached, CTree};
use crate::ir::generic::GenKind;
use crate::source::Span;

/// What every later phase reads about the region: the construct, its
/// block and the directives nested in it. Built once, never changed.
pub(super) struct Construct<'a> {
    pub at: &'a Attached,
    /// The compute construct (`target` and a closely nested `teams` merged).
    pub d: &'a Directive,
    /// The `teams` construct merged into `target`.
    pub teams: Option<&'a Attached>,
    /// The directives inside the block, less the merged `teams`.
    pub nested: Vec<&'a Attached>,
    pub kind: GenKind,
    /// The structured block and its node.
    pub block: Span,
    pub stmt: Node<'a>,
    pub root: Node<'a>,
    pub text: &'a str,
    /// `acc kernels`: scalars default to copy (OpenACC 3.3 2.6.2).
    pub is_kernels: bool,
    /// `acc kernels` with a structured block: one gang runs it.
    pub one_gang: bool,
}

/// `target` whose block is a `teams` construct (closely nested, as in
/// the paper's figures) is `target teams` with both clause lists.
pub(super) fn closely_nested_teams<'a>(
    tree: &CTree,
    at: &Attached,
    nested: &[&'a Attached],
) -> Option<&'a Attached> {
    nested
        .iter()
        .find(|n| {
            at.directive.model == Model::Omp
                && at.directive.name == "target"
                && n.directive.name == "teams"
                && n.stmt.is_some()
                && (n.stmt == at.stmt || only_statement(tree, at.stmt, n))
        })
        .copied()
}

/// `target` and its closely nested `teams` as one `target teams`.
pub(super) fn with_teams_clauses(target: &Directive, t: &Attached) -> Directive {
    let mut m = target.clone();
    m.name = "target teams".into();
    m.clauses.extend(t.directive.clauses.iter().cloned());
    m
}

impl<'a> Construct<'a> {
    /// Checks the construct's clauses and finds its block; `None` when
    /// there is no block to lower.
    pub(super) fn new(
        cx: &mut Ctx<'a>,
        at: &'a Attached,
        d: &'a Directive,
        teams: Option<&'a Attached>,
        nested: &[&'a Attached],
    ) -> Option<Construct<'a>> {
        let nested: Vec<&Attached> = nested
            .iter()
            .copied()
            .filter(|n| teams.map_or(true, |t| n.directive.span != t.directive.span))
            .collect();
        let kind = kind_of(d);
        let tree = cx.tree;
        check_clauses(cx, d);
        let Some(block) = at.stmt else {
            cx.diags.push(
                Diagnostic::new(
                    codes::NO_ASSOCIATED_LOOP,
                    d.span,
                    format!(
                        "`{} {}` must be followed by a structured block",
                        d.model.as_str(),
                        d.name
                    ),
                )
                .with_label("no statement follows"),
            );
            return None;
        };
        let stmt = node_at(tree, block)?;
        if stmt.has_error() {
            cx.diags.push(
                Diagnostic::new(
                    codes::C_PARSE,
                    block,
                    "the C code of this region could not be parsed; no code is generated for it",
                )
                .with_label("syntax error in here")
                .with_secondary(d.span, "region begins here"),
            );
            return None;
        }
        let root = tree.root()?;
        // `acc kernels`: scalars default to copy (OpenACC 3.3 2.6.2).
        let is_kernels = d.model == Model::Acc && d.name == "kernels";
        // `acc kernels` with a structured block (not a `kernels loop` the
        // driver split, whose loop's pragma starts at the construct's name):
        // one gang runs the block, its master the sequential code, its threads
        // the nested loops. Correct for any code the block holds (no kernels
        // analysis is done), not yet fast.
        let one_gang = is_kernels
            && !nested
                .iter()
                .any(|n| n.stmt == Some(block) && n.directive.span.start == d.name_span.start);
        Some(Construct {
            at,
            d,
            teams,
            nested,
            kind,
            block,
            stmt,
            root,
            text: &cx.file.text,
            is_kernels,
            one_gang,
        })
    }
}

/// Clauses of the construct that generic mode does not lower, one
/// diagnostic each (reductions are lowered or refused by later phases).
fn check_clauses(cx: &mut Ctx<'_>, d: &Directive) {
    crate::lower::asynchrony::check_arguments(d, cx.diags);
    if d.model == Model::Omp {
        crate::lower::allocators::check(d, cx.diags);
    }
    for c in &d.clauses {
        // Reduction items are lowered or refused below, one diagnostic each;
        // `if` and OpenMP's `device` by `host_if`.
        if c.name == "reduction"
            || c.name == "if"
            || (d.model == Model::Omp
                && (c.name == "device" || crate::lower::allocators::is_allocator_clause(&c.name)))
        {
            continue;
        }
        // `default(private | firstprivate)` of a split combined loop
        // construct would privatize for its parallel leaf too: `split`
        // keeps such a construct whole; here it is the compute construct's
        // own (`region_vars`).
        if !top_clause_ok(d.model, &c.name) {
            cx.diags.push(not_supported(
                c.name_span,
                format!(
                    "clause `{}` on `{} {}` with a structured block is not supported yet",
                    c.name,
                    d.model.as_str(),
                    d.name
                ),
            ));
        }
    }
}
