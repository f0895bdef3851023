//! The clauses of a construct nested in a generic-mode region: its
//! collapsed loop nest, its private / firstprivate / lastprivate items and
//! its reduction items over the team, each checked and resolved against
//! the symbols visible at the construct (one diagnostic per refused item).

use super::syntax::{assignments_to, span_of};
use super::{not_supported, Ctx};
use crate::diag::{codes, Diagnostic};
use crate::directives::Directive;
use crate::front::c::Node;
use crate::ir::generic::{GenRed, PrivKind, PrivVar};
use crate::ir::reduction::TeamArrayRed;
use crate::sema::loops::{self, int_literal, CanonLoop};
use crate::sema::sharing;
use crate::sema::{symbols, CType};
use crate::source::Span;

/// Reads `collapse(n)` and analyses the loop nest at `stmt`.
pub(super) fn loop_nest(
    cx: &mut Ctx<'_>,
    d: &Directive,
    stmt: Node<'_>,
) -> Option<(Vec<CanonLoop>, Vec<CType>)> {
    if crate::lower::collapse::refuse_force(d, cx.diags) {
        return None;
    }
    let depth = match d.clause("collapse").and_then(|c| c.expr()) {
        None => crate::lower::tile::team_depth(d, cx.diags)?,
        Some(e) => match int_literal(&e.text) {
            Some(v) if (1..=8).contains(&v) => v as usize,
            _ => {
                cx.diags.push(
                    Diagnostic::new(
                        codes::BAD_CLAUSE_ARG,
                        e.span,
                        "collapse takes a constant positive integer",
                    )
                    .with_label("not a constant from 1 to 8"),
                );
                return None;
            }
        },
    };
    let mut nest = Vec::new();
    let mut node = stmt;
    for level in 0..depth {
        match loops::analyse(node, &cx.file.text) {
            Ok(l) => nest.push(l),
            Err(e) => {
                cx.diags.push(e);
                return None;
            }
        }
        if level + 1 < depth {
            match loops::nested_loop(node) {
                Some(n) => node = n,
                None => {
                    cx.diags.push(
                        Diagnostic::new(
                            codes::NO_ASSOCIATED_LOOP,
                            span_of(node),
                            format!(
                                "collapse({depth}) needs {depth} perfectly nested loops; found {}",
                                level + 1
                            ),
                        )
                        .with_label("this body is not a single for loop"),
                    );
                    return None;
                }
            }
        }
    }
    let root = cx.tree.root()?;
    let syms = symbols::visible_at(root, &cx.file.text, stmt);
    let mut types = Vec::new();
    for l in &nest {
        let ty = match &l.declared_type {
            Some(t) => t.clone(),
            None => match syms.get(&l.var) {
                Some(s) if s.ty.is_scalar() => s.ty.clone(),
                _ => {
                    cx.diags.push(
                        Diagnostic::new(
                            codes::UNDECLARED,
                            l.var_span,
                            format!("loop variable `{}` is not declared", l.var),
                        )
                        .with_label("no declaration visible"),
                    );
                    return None;
                }
            },
        };
        types.push(CType {
            base: ty.unqualified_base(),
            derivs: vec![],
        });
    }
    // Non-rectangular: the rectangular prefix collapses, the other loops
    // run in order (lower/collapse.rs) when they declare their variables
    // (one declared outside would be shared by the team).
    let kept = crate::lower::collapse::rectangular_prefix(&nest);
    if let Some(l) = nest[kept..].iter().find(|l| l.declared_type.is_none()) {
        cx.diags.push(not_supported(
            l.span,
            "a non-rectangular collapsed loop nest whose inner loop variable is declared outside its loop is not supported yet in a region with a structured block",
        ));
        return None;
    }
    nest.truncate(kept);
    types.truncate(kept);
    Some((nest, types))
}

/// private / firstprivate / lastprivate items of a nested construct.
pub(super) fn privates(
    cx: &mut Ctx<'_>,
    d: &Directive,
    at: Node<'_>,
    body: Option<Node<'_>>,
) -> Vec<PrivVar> {
    let mut out = Vec::new();
    let Some(root) = cx.tree.root() else {
        return out;
    };
    let syms = symbols::visible_at(root, &cx.file.text, at);
    for c in &d.clauses {
        let kind = match c.name.as_str() {
            "private" => PrivKind::Private,
            "firstprivate" => PrivKind::Firstprivate,
            "lastprivate" => PrivKind::Lastprivate {
                conditional: c.modifiers().iter().any(|m| m.text == "conditional"),
            },
            _ => continue,
        };
        for item in c.items() {
            let lastp = matches!(kind, PrivKind::Lastprivate { .. });
            if !item.path.is_empty() || (lastp && !item.sections.is_empty()) {
                cx.diags.push(not_supported(
                    item.span,
                    "struct members, and array sections in lastprivate, are not supported yet",
                ));
                continue;
            }
            let Some(sym) = syms
                .get(&item.name)
                .filter(|s| !s.is_typedef && !s.ty.is_function())
            else {
                cx.diags.push(
                    Diagnostic::new(
                        codes::UNDECLARED,
                        item.name_span,
                        format!("`{}` is not a declared variable", item.name),
                    )
                    .with_label("not declared before this directive"),
                );
                continue;
            };
            if kind == (PrivKind::Lastprivate { conditional: true })
                && !crate::lower::gen_lastprivate::type_ok(
                    &sym.ty.unqualified_base(),
                    sym.ty.derivs.is_empty(),
                    &syms,
                )
            {
                cx.diags.push(crate::lower::gen_lastprivate::type_refused(
                    item.span, &item.name,
                ));
                continue;
            }
            if matches!(kind, PrivKind::Lastprivate { .. }) {
                if let Err(e) = crate::sema::lastprivate_array::check(item, sym, false, &syms) {
                    cx.diags.push(*e);
                    continue;
                }
            }
            let section = if item.sections.is_empty() {
                None
            } else {
                let first = kind == PrivKind::Firstprivate;
                match crate::lower::privarray::nested_section(d, first, item, sym, &syms, cx.diags)
                {
                    Some(b) => Some(b),
                    None => continue,
                }
            };
            let assigns = match (kind, body) {
                (PrivKind::Lastprivate { conditional: true }, Some(b)) => {
                    let mut v = Vec::new();
                    assignments_to(b, &cx.file.text, &item.name, &mut v);
                    v
                }
                _ => vec![],
            };
            out.push(PrivVar {
                name: item.name.clone(),
                ty: CType {
                    base: sym.ty.unqualified_base(),
                    derivs: sym.ty.derivs.clone(),
                },
                kind,
                span: item.span,
                assigns,
                section,
            });
        }
    }
    out
}

/// `reduction` items of a nested construct. `private_scope`: the block of
/// the enclosing parallel region (for a worksharing loop inside one), whose
/// own variables are private to each thread and cannot be reduced over the
/// team; `fork_privates` are the region's privatized variables.
pub(super) fn reductions(
    cx: &mut Ctx<'_>,
    d: &Directive,
    at: Node<'_>,
    private_scope: Option<Span>,
    fork_privates: &[String],
) -> Vec<GenRed> {
    let mut out: Vec<GenRed> = Vec::new();
    let Some(root) = cx.tree.root() else {
        return out;
    };
    let syms = symbols::visible_at(root, &cx.file.text, at);
    for c in d.clauses.iter().filter(|c| c.name == "reduction") {
        let mods = c.modifiers();
        let op = sharing::red_op_with_modifier(mods);
        let Some(op) = op else {
            let (span, text) = mods
                .last()
                .map(|m| (m.span, m.text.as_str()))
                .unwrap_or((c.span, "?"));
            let msg = if mods.iter().any(|m| m.text == "inscan") {
                "the reduction modifier `inscan` inside an offloaded region is not supported yet"
                    .to_string()
            } else {
                format!("reduction operator `{text}` is not supported yet")
            };
            cx.diags
                .push(not_supported(span, msg).with_note(
                    "supported: `+`, `-`, `*`, `max`, `min`, `&`, `|`, `^`, `&&`, `||`",
                ));
            continue;
        };
        for item in c.items() {
            if !item.path.is_empty() {
                cx.diags.push(not_supported(
                    item.span,
                    "struct members in reduction clauses are not supported yet",
                ));
                continue;
            }
            let Some(sym) = syms
                .get(&item.name)
                .filter(|s| !s.is_typedef && !s.ty.is_function())
            else {
                cx.diags.push(
                    Diagnostic::new(
                        codes::UNDECLARED,
                        item.name_span,
                        format!("`{}` is not a declared variable", item.name),
                    )
                    .with_label("not declared before this directive"),
                );
                continue;
            };
            let (arith, is_array) = match sharing::reduction_type(item, sym, op, &syms) {
                Ok(x) => x,
                Err(e) => {
                    cx.diags.push(*e);
                    continue;
                }
            };
            let private_here = private_scope.is_some_and(|s| sym.decl_span.within(s))
                || fork_privates.contains(&item.name);
            if private_here {
                cx.diags.push(
                    not_supported(
                        item.span,
                        format!(
                            "a reduction over `{}`, which is private to each thread of the enclosing parallel region, is not supported yet",
                            item.name
                        ),
                    )
                    .with_note("the variable of a reduction on a worksharing construct must be shared by the team"),
                );
                continue;
            }
            if out.iter().any(|r| r.name == item.name)
                || cx
                    .array_reds
                    .iter()
                    .any(|r| r.construct == d.span && r.var == item.name)
            {
                cx.diags.push(not_supported(
                    item.span,
                    format!(
                        "`{}` in two reduction clauses of one construct is not supported yet",
                        item.name
                    ),
                ));
                continue;
            }
            if is_array {
                match TeamArrayRed::from_item(d.span, item, sym, op, arith) {
                    Ok(a) => cx.array_reds.push(a),
                    Err(e) => cx.diags.push(*e),
                }
                continue;
            }
            out.push(GenRed {
                name: item.name.clone(),
                ty: CType {
                    base: sym.ty.unqualified_base(),
                    derivs: vec![],
                },
                arith,
                op,
                span: item.span,
            });
        }
    }
    out
}
