//! Phase 5: team barriers. A fork with a barrier inside (a `barrier`
//! pragma, a worksharing loop's implicit barrier, a combine between two
//! barriers, a `single` without `nowait`) needs the team barrier's setup; the implicit barrier of a
//! loop that ends its region is the join itself, and such a loop's
//! reductions combine at the join rather than between two barriers.

use super::nested_constructs::NestedParts;
use super::syntax::{node_at, span_of};
use crate::front::CTree;
use crate::ir::generic::SerialKind;
use crate::source::Span;
use std::collections::BTreeSet;

/// Decides which forks have team barriers, which loops keep their barrier
/// and where each worksharing loop's reductions combine.
pub(super) fn place(tree: &CTree, text: &str, parts: &mut NestedParts) {
    let NestedParts {
        forks,
        inner_loops,
        barriers,
        serials,
        ..
    } = parts;
    // A `single` without `nowait` ends with a team barrier.
    for s in serials.iter().filter(|s| s.in_fork) {
        if matches!(
            s.kind,
            SerialKind::Single { barrier: true }
                | SerialKind::Sections { barrier: true, .. }
                | SerialKind::Scope { barrier: true }
        ) {
            if let Some(f) = forks.iter_mut().find(|f| {
                s.pragma.within(Span::new(f.pragma.start, f.stmt.end)) && f.pragma != s.pragma
            }) {
                f.has_barrier = true;
            }
        }
    }
    for (sp, in_fork) in barriers.iter_mut() {
        let f = forks
            .iter_mut()
            .find(|f| sp.within(Span::new(f.pragma.start, f.stmt.end)) && f.pragma != *sp);
        *in_fork = f.is_some();
        if let Some(f) = f {
            f.has_barrier = true;
        }
    }
    // lastprivate(conditional:) combines between two team barriers.
    for f in forks.iter_mut() {
        if f.ws
            .as_ref()
            .is_some_and(|w| crate::lower::gen_lastprivate::any(&w.privates))
        {
            f.has_barrier = true;
        }
    }
    for (id, w) in inner_loops.iter() {
        if crate::lower::gen_lastprivate::any(&w.privates) {
            forks[(*id - 1) as usize].has_barrier = true;
        }
    }
    // The implicit barrier after a worksharing loop that ends its parallel
    // region is the join itself.
    for (id, w) in inner_loops.iter_mut() {
        if !w.barrier_after {
            continue;
        }
        let f = &forks[(*id - 1) as usize];
        let body_end = body_end(tree, f.stmt);
        let rest = text.get(w.stmt.end.min(body_end)..body_end).unwrap_or("");
        if rest.trim().is_empty() {
            w.barrier_after = false;
        } else {
            forks[(*id - 1) as usize].has_barrier = true;
        }
    }
    // Reductions of worksharing loops: combined at the join when the loop
    // ends its region, else between two team barriers after the loop.
    for (id, w) in inner_loops.iter_mut() {
        if w.reductions.is_empty() {
            continue;
        }
        let f = &mut forks[(*id - 1) as usize];
        let body_end = body_end(tree, f.stmt);
        let rest = text.get(w.stmt.end.min(body_end)..body_end).unwrap_or("");
        // A statement of the region's block itself (not of a loop or `if`
        // in it, which may run it several times or not at all).
        let top_level = w.stmt == f.stmt
            || node_at(tree, w.stmt)
                .and_then(|n| n.parent())
                .is_some_and(|p| span_of(p) == f.stmt);
        if top_level && rest.trim().is_empty() {
            w.red_at_join = true;
        } else {
            // The team barrier after the combine also keeps the warps'
            // slots until thread 0 has read them (even with nowait).
            w.barrier_after = true;
            f.has_barrier = true;
        }
    }
}

/// The reductions write their variables (a kernel parameter cannot hold
/// them for the team).
/// Where the statement `stmt` of a fork ends its body: before the closing
/// brace of a compound statement.
fn body_end(tree: &CTree, stmt: Span) -> usize {
    node_at(tree, stmt)
        .map(|s| {
            if s.kind() == "compound_statement" {
                s.end_byte() - 1
            } else {
                s.end_byte()
            }
        })
        .unwrap_or(stmt.end)
}

pub(super) fn reductions_write(parts: &NestedParts, written: &mut BTreeSet<String>) {
    let NestedParts {
        forks, inner_loops, ..
    } = parts;
    for r in forks
        .iter()
        .flat_map(|f| f.reductions.iter())
        .chain(inner_loops.iter().flat_map(|(_, w)| w.reductions.iter()))
    {
        written.insert(r.name.clone());
    }
}
