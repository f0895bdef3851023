//! Variables a generic-mode region names only as iteration variables of the
//! loop constructs nested in it (C89 style: `int i;` before the region,
//! `#pragma omp distribute` / `#pragma acc loop` then `for (i = 0; ...)`).
//! Each such loop privatizes its iteration variable (OpenMP 5.2 5.1.1,
//! OpenACC 3.3 2.6.1) and assigns it before any use, so the region's copy
//! is never read: it is private to the region (predetermined), not a
//! firstprivate whose host value (often never set) would be passed to the
//! kernel, nor (`acc kernels`) a scalar copied back.

use crate::directives::{Clause, Directive, Model};
use crate::front::{Attached, CTree};
use crate::sema::loops::{self, int_literal};
use crate::source::mask::mentions_word;
use crate::source::Span;

/// The names of `used` that the block at `block` mentions only inside the
/// loop nests of `nested` loop constructs that have them as iteration
/// variables (and do not name them in a clause).
pub(super) fn loop_only_vars(
    tree: &CTree,
    text: &str,
    block: Span,
    nested: &[&Attached],
    used: &[crate::sema::uses::Use],
) -> Vec<String> {
    // Per nested loop construct: its span and its iteration variables.
    let loops: Vec<(Span, Vec<String>)> = nested
        .iter()
        .filter_map(|n| {
            let stmt = n.stmt?;
            let vars = iteration_vars(tree, text, &n.directive, stmt)?;
            // A combined construct's loop (split by the driver) is the block.
            let start = n.directive.span.start.max(block.start);
            Some((Span::new(start.min(stmt.start), stmt.end), vars))
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    for u in used {
        if out.contains(&u.name) {
            continue;
        }
        let spans: Vec<Span> = loops
            .iter()
            .filter(|(_, vars)| vars.contains(&u.name))
            .map(|(s, _)| *s)
            .filter(|s| s.within(block))
            .collect();
        if spans.is_empty() {
            continue;
        }
        let mut rest: Vec<u8> = text.as_bytes()[block.start..block.end].to_vec();
        for s in &spans {
            for b in &mut rest[s.start - block.start..s.end - block.start] {
                *b = b' ';
            }
        }
        if !mentions_word(&String::from_utf8_lossy(&rest), &u.name) {
            out.push(u.name.clone());
        }
    }
    out
}

/// Whether `d` is a loop construct of the model.
fn is_loop_construct(d: &Directive) -> bool {
    let words: Vec<&str> = d.words().collect();
    match d.model {
        Model::Omp => words
            .iter()
            .any(|w| matches!(*w, "for" | "simd" | "distribute" | "loop")),
        Model::Acc => words.contains(&"loop"),
    }
}

/// The iteration variables of the loop nest associated with `d` at `stmt`
/// that `d` privatizes without a clause naming them and whose loop assigns
/// them before reading them (the lower bound does not name the variable).
/// `None` when `d` is not a loop construct or its nest is not canonical.
fn iteration_vars(tree: &CTree, text: &str, d: &Directive, stmt: Span) -> Option<Vec<String>> {
    if !is_loop_construct(d) {
        return None;
    }
    let depth = match d.clause("collapse").and_then(Clause::expr) {
        None => 1,
        Some(e) => int_literal(&e.text).filter(|v| (1..=8).contains(v))? as usize,
    };
    let named = |v: &str| {
        d.clauses
            .iter()
            .any(|c| c.items().iter().any(|it| it.name == v))
    };
    let mut node = super::syntax::node_at(tree, stmt)?;
    let mut vars = Vec::new();
    for level in 0..depth {
        let l = loops::analyse(node, text).ok()?;
        if l.declared_type.is_none() && !named(&l.var) && !mentions_word(&l.lb, &l.var) {
            vars.push(l.var);
        }
        if level + 1 < depth {
            node = loops::nested_loop(node)?;
        }
    }
    Some(vars)
}

/// Each fork that runs a loop over one of the region's `loop_only`
/// variables as written (an `acc loop seq`, a `simd`, a loop construct its
/// threads run in order) gets a private copy of it per thread: the loop
/// construct privatizes it for the thread that runs the loop (OpenMP 5.2
/// 5.1.1, OpenACC 3.3 2.6.1). The fork's own loop and the worksharing loops
/// in it declare their iteration variables themselves.
pub(super) fn privatize_in_forks(
    cx: &mut super::Ctx<'_>,
    rc: &super::construct::Construct<'_>,
    rv: &super::region_vars::RegionVars,
    parts: &mut super::nested_constructs::NestedParts,
) {
    let text = rc.text;
    let (inner, master) = (&parts.inner_loops, &parts.master_loops);
    for f in parts.forks.iter_mut() {
        let Some(ftext) = text.get(f.stmt.start..f.stmt.end) else {
            continue;
        };
        for v in rv
            .vars
            .iter()
            .filter(|v| rv.loop_only.contains(&v.sym.name))
        {
            let name = v.sym.name.as_str();
            if f.privates.iter().any(|p| p.name == name) || !mentions_word(ftext, name) {
                continue;
            }
            // The team's copy of an enclosing loop over the teams (frame_wants).
            let of_team_loop = master
                .iter()
                .any(|w| f.stmt.within(w.stmt) && w.nest.iter().any(|l| l.var == name));
            if of_team_loop {
                continue;
            }
            // The lowered loops over `name` declare it themselves.
            let mut rest = ftext.as_bytes().to_vec();
            let lowered =
                f.ws.iter()
                    .chain(inner.iter().filter(|(id, _)| *id == f.id).map(|(_, w)| w))
                    .filter(|w| w.nest.iter().any(|l| l.var == name))
                    .map(|w| Span::new(w.pragma.start, w.stmt.end));
            for s in lowered {
                let a = s.start.max(f.stmt.start) - f.stmt.start;
                let b = s.end.min(f.stmt.end).saturating_sub(f.stmt.start);
                for c in rest.iter_mut().take(b).skip(a) {
                    *c = b' ';
                }
            }
            if !mentions_word(&String::from_utf8_lossy(&rest), name) {
                continue;
            }
            // A loop of the sequential part over `name` (`acc loop seq`)
            // around the fork: the fork's threads must read the current
            // iteration's value, which a private copy would not hold.
            if let Some(at) = enclosing_loop_over(cx.tree, text, f.stmt, rc.block, name) {
                cx.diags.push(super::not_supported(
                    at,
                    format!("`{name}` is the iteration variable of a sequential loop construct around a parallel loop that reads it; declare it in the loop (`for (int {name} = ...`)"),
                ));
                continue;
            }
            f.privates.push(crate::ir::generic::PrivVar {
                name: v.sym.name.clone(),
                ty: v.sym.ty.clone(),
                kind: crate::ir::generic::PrivKind::Private,
                span: v.span,
                assigns: vec![],
                section: None,
            });
        }
    }
}

/// The `for` statement inside `block` that encloses `stmt` and iterates
/// over `name` (its canonical loop variable), if any.
fn enclosing_loop_over(
    tree: &CTree,
    text: &str,
    stmt: Span,
    block: Span,
    name: &str,
) -> Option<Span> {
    let mut node = super::syntax::node_at(tree, stmt)?.parent();
    while let Some(n) = node {
        let span = Span::new(n.start_byte(), n.end_byte());
        if !span.within(block) {
            return None;
        }
        if n.kind() == "for_statement" {
            if let Ok(l) = loops::analyse(n, text) {
                if l.var == name {
                    let end = n
                        .child_by_field_name("body")
                        .map_or(n.end_byte(), |b| b.start_byte());
                    return Some(Span::new(n.start_byte(), end));
                }
            }
        }
        node = n.parent();
    }
    None
}
