//! Loop variables of orphaned worksharing loops that are device variables
//! (`declare target` globals). OpenMP makes the iteration variable of a
//! `for` / `parallel for` loop (and of each loop `collapse` associates)
//! private to the construct, so inside the loop it is a local of each
//! thread, never the global's device copy: its uses there keep the plain
//! name (the outlined body declares the local), and the team-of-one path
//! declares a local of the same name before the construct (host OpenMP
//! privatizes it again). Only where every use of the name in the
//! construct's statement lies inside the loop, and the loop variable is not
//! `lastprivate` (which writes the original back).

use crate::ir::declare::DeclarePlan;
use crate::ir::orphan::{Inner, OLoop, Orphan};
use crate::source::Span;

/// Drops the loop variables' uses from the device-variable rewrites and
/// records the locals the team-of-one path declares (`Orphan::shadows`).
pub fn apply(plan: &mut DeclarePlan) {
    let globals: Vec<String> = plan.vars.iter().map(|v| v.name.clone()).collect();
    let mut orphans = std::mem::take(&mut plan.orphans.orphans);
    for o in &mut orphans {
        let Some(f) = plan.fns.iter_mut().find(|f| f.name == o.function) else {
            continue;
        };
        for (name, ty, scope) in loop_vars(o) {
            if !globals.contains(&name) || o.shadows.iter().any(|(n, _)| *n == name) {
                continue;
            }
            let in_stmt = |s: &Span| s.within(o.stmt);
            let outside_loop = f
                .var_uses
                .iter()
                .any(|(n, s)| *n == name && in_stmt(s) && !s.within(scope));
            if outside_loop {
                continue;
            }
            f.var_uses.retain(|(n, s)| !(*n == name && s.within(scope)));
            o.shadows.push((name, ty));
        }
    }
    plan.orphans.orphans = orphans;
}

/// (variable, type, the loop statement) of each associated loop of the
/// construct's worksharing loops, lastprivate ones left out.
fn loop_vars(o: &Orphan) -> Vec<(String, crate::ir::c::CType, Span)> {
    let loops: Vec<&OLoop> =
        o.lp.iter()
            .chain(o.inner.iter().filter_map(|i| match i {
                Inner::For(l) => Some(l),
                _ => None,
            }))
            .collect();
    let mut out = Vec::new();
    for l in loops {
        for (c, ty) in &l.nest {
            let last = l.privs.iter().any(|p| p.last && p.name == c.var)
                || o.privs.iter().any(|p| p.last && p.name == c.var);
            if c.declared_type.is_none() && !last {
                out.push((c.var.clone(), ty.clone(), l.stmt));
            }
        }
    }
    out
}
