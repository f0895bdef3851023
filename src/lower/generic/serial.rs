//! `single`, `master`, `masked` and `critical` in a generic-mode region
//! (seed 004's serial and critical regions, seed 001's lock).
//!
//! Inside a fork (a team of threads): `single` is run by the team's thread
//! 0 and followed by a team barrier unless `nowait` (any thread is a
//! conforming choice; thread 0 is the one whose private variables are the
//! encountering thread's); `master` / `masked [filter(e)]` by the thread
//! whose number is the filter (0 by default), with no barrier. In the
//! sequential part the team is one thread: `single` and `master` run as
//! written, `masked` when its filter is 0. `critical [(name)]` runs one
//! thread at a time over every team of every kernel of the file, wherever it
//! is: a spin lock per name in global memory (`emit::generic`'s
//! `serial_edits`), acquired by compare-and-swap with the body inside the
//! branch that took it, so the lanes of a warp never wait for each other.
//! Refused (E0901): `copyprivate` and `allocate` on `single`, any clause
//! not listed here, and `single` / `master` / `masked` inside a worksharing
//! loop (not conforming: OpenMP forbids the nesting).

use super::construct::Construct;
use super::nested_constructs::{in_order_privates, NestedParts};
use super::syntax::node_at;
use super::{not_supported, Ctx};
use crate::directives::{ClauseArgs, Directive};
use crate::front::Attached;
use crate::ir::generic::{Serial, SerialKind};

/// Lowers one `single` / `master` / `masked` / `critical` directive.
pub(super) fn lower(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    parts: &mut NestedParts,
    na: &Attached,
    in_fork: bool,
    fork_is_loop: bool,
) {
    let nd = &na.directive;
    let Some(stmt) = na.stmt else {
        return;
    };
    let name = nd.name.as_str();
    let in_loop = fork_is_loop
        || parts
            .inner_loops
            .iter()
            .any(|(_, w)| nd.span.within(w.stmt))
        || parts.master_loops.iter().any(|w| nd.span.within(w.stmt));
    if in_loop && name != "critical" {
        cx.diags.push(
            not_supported(
                nd.name_span,
                format!("`omp {name}` inside a worksharing or distribute loop is not supported yet"),
            )
            .with_note("OpenMP does not allow a single, master or masked region closely nested in a loop region"),
        );
        return;
    }
    if !clauses_ok(cx, nd) {
        return;
    }
    let kind = match name {
        "sections" => match sections(cx, rc, na, stmt) {
            Some(k) => k,
            None => return,
        },
        "single" => SerialKind::Single {
            barrier: nd.clause("nowait").is_none(),
        },
        "critical" => SerialKind::Critical {
            name: critical_name(nd),
        },
        _ => SerialKind::Masked {
            filter: nd.clause("filter").and_then(|c| match &c.args {
                ClauseArgs::Expr { expr, .. } => Some(expr.span),
                _ => None,
            }),
        },
    };
    if name == "single" {
        in_order_privates(cx, parts, na);
    }
    parts.serials.push(Serial {
        kind,
        pragma: nd.span,
        stmt,
        in_fork,
    });
}

/// The clauses each construct honours; every other one is refused.
fn clauses_ok(cx: &mut Ctx<'_>, nd: &Directive) -> bool {
    let mut ok = true;
    for c in &nd.clauses {
        let fine = match nd.name.as_str() {
            "single" => matches!(c.name.as_str(), "private" | "firstprivate" | "nowait"),
            "sections" => c.name == "nowait",
            "masked" => c.name == "filter",
            "critical" => c.name == "hint",
            _ => false,
        };
        if !fine {
            let mut d = not_supported(
                c.name_span,
                format!(
                    "clause `{}` on `omp {}` inside an offloaded region is not supported yet",
                    c.name, nd.name
                ),
            );
            if c.name == "copyprivate" {
                d = d.with_note("the value would have to be broadcast from the thread that ran the single region to the team");
            }
            cx.diags.push(d);
            ok = false;
        }
    }
    ok
}

/// A `sections` construct in a fork: its `section` pragmas, in order, and
/// whether the first section has none. Refused when its block is not a
/// compound statement or holds another `sections`.
fn sections(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    na: &Attached,
    stmt: crate::source::Span,
) -> Option<SerialKind> {
    let nd = &na.directive;
    let inside = |a: &&&Attached| a.directive.span.within(stmt) && a.directive.span != nd.span;
    let nested_sections = rc
        .nested
        .iter()
        .filter(inside)
        .any(|a| a.directive.name.contains("sections"));
    let node = node_at(cx.tree, stmt).filter(|n| n.kind() == "compound_statement");
    let (Some(node), false) = (node, nested_sections) else {
        cx.diags.push(not_supported(
            nd.name_span,
            "`omp sections` whose block is not braced or holds another `sections` inside a parallel region is not supported yet",
        ));
        return None;
    };
    let mut section: Vec<_> = rc
        .nested
        .iter()
        .filter(inside)
        .filter(|a| a.directive.name == "section")
        .map(|a| a.directive.span)
        .collect();
    section.sort_by_key(|s| s.start);
    let mut cur = node.walk();
    let first_stmt = node
        .named_children(&mut cur)
        .find(|c| c.kind() != "comment")
        .map(|c| c.start_byte());
    let implicit_first = match (first_stmt, section.first()) {
        (Some(f), Some(p)) => f < p.start,
        (Some(_), None) => true,
        _ => false,
    };
    Some(SerialKind::Sections {
        barrier: nd.clause("nowait").is_none(),
        section,
        implicit_first,
    })
}

/// The name of `critical(name)`, if any.
fn critical_name(d: &Directive) -> Option<String> {
    match d.arg.as_ref().map(|a| &a.args) {
        Some(ClauseArgs::Expr { expr, .. }) if !expr.text.trim().is_empty() => {
            Some(expr.text.trim().to_string())
        }
        _ => None,
    }
}
