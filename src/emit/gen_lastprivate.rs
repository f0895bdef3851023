//! Spelling of `lastprivate(conditional:)` on worksharing loops of
//! generic-mode parallel regions (`lower/gen_lastprivate.rs` says why the
//! scheme is a team reduction of (last assigning iteration, value) pairs).
//!
//! The assignments to the variable in the loop body are marked like the SPMD
//! path's (`region::lastprivate_marker`'s idea: a marker before, `)` after),
//! and the marker becomes `(mine = iteration + 1, ` once the loop's
//! iteration variable has its name.

use super::edits::Edit;
use super::namer::Namer;
use crate::ir::generic::{Generic, PrivKind, PrivVar};
use std::fmt::Write;

/// One conditional lastprivate of a loop being emitted.
pub struct Cond {
    name: String,
    outer: String,
    mine: String,
    ty: String,
    marker: String,
}

fn conditional(p: &PrivVar) -> bool {
    p.kind == (PrivKind::Lastprivate { conditional: true })
}

fn marker(p: &PrivVar) -> String {
    format!("\u{0}P2C_LPC{}\u{0}", p.span.start)
}

/// Edits marking every assignment to a conditional lastprivate variable in
/// the region's worksharing loops.
pub fn marker_edits(g: &Generic) -> Vec<Edit> {
    let loops = g.fork_loops_in_order();
    let mut out = Vec::new();
    for w in loops {
        for p in w.privates.iter().filter(|p| conditional(p)) {
            for a in &p.assigns {
                out.push(Edit::insert(a.start, 5, marker(p)));
                out.push(Edit::insert(a.end, 95, ")"));
            }
        }
    }
    out
}

/// Declares each conditional lastprivate's iteration record (the private
/// copy itself is declared with the other lastprivates, whose `(name,
/// outer)` list loses the conditional ones).
pub fn declare(
    privs: &[PrivVar],
    lastp: &mut Vec<(String, String)>,
    namer: &mut Namer,
    out: &mut String,
    ind: &str,
) -> Vec<Cond> {
    let mut conds = Vec::new();
    for p in privs.iter().filter(|p| conditional(p)) {
        let Some(i) = lastp.iter().position(|(n, _)| *n == p.name) else {
            continue;
        };
        let (name, outer) = lastp.remove(i);
        let mine = namer.fresh(&format!("p2c_lp_iter_{name}"));
        let _ = writeln!(
            out,
            "{ind}unsigned long long {mine} = 0; /* lastprivate(conditional: {name}): this thread's last assigning iteration + 1 */"
        );
        conds.push(Cond {
            name,
            outer,
            mine,
            ty: p.ty.type_name(),
            marker: marker(p),
        });
    }
    conds
}

/// The rendered loop body with each marker spelled as the store of the
/// iteration (`it` is the loop's flattened iteration, in sequential order).
pub fn mark(_privs: &[PrivVar], conds: &[Cond], it: &str, body: String) -> String {
    let mut body = body;
    for c in conds {
        body = body.replace(&c.marker, &format!("({} = {it} + 1, ", c.mine));
    }
    body
}

/// After the loop, every thread of the team: the pairs through the team's
/// warp trees into per-warp slots, a team barrier, thread 0 stores the
/// value of the last assigning iteration (if any iteration assigned), and a
/// team barrier before the slots can be used again.
pub fn combine(
    conds: &[Cond],
    tid: &str,
    team: &str,
    namer: &mut Namer,
    out: &mut String,
    ind: &str,
) {
    for c in conds {
        let slots = namer.fresh(&format!("p2c_lp_slots_{}", c.name));
        let lc = namer.fresh(&format!("p2c_lp_{}", c.name));
        let win = namer.fresh(&format!("p2c_lp_last_{}", c.name));
        let t = &c.ty;
        let _ = writeln!(
            out,
            "{ind}{{ /* lastprivate(conditional: {name}): the value of the last iteration that assigned it */\n\
             {ind}    __shared__ p2c_lastcond<{t}> {slots}[32];\n\
             {ind}    p2c_lastcond<{t}> {lc} = {{{mine}, {t}()}};\n\
             {ind}    if ({mine} != 0u)\n\
             {ind}        {lc}.value = {name};\n\
             {ind}    p2c_team_red_warps({lc}, {slots}, {tid}, {team});\n\
             {ind}    p2c_team_barrier({team}); /* the warps' pairs are in {slots} */\n\
             {ind}    if ({tid} == 0u) {{\n\
             {ind}        const p2c_lastcond<{t}> {win} = p2c_team_red_value({slots}, {team});\n\
             {ind}        if ({win}.mine != 0u)\n\
             {ind}            {outer} = {win}.value;\n\
             {ind}    }}\n\
             {ind}    p2c_team_barrier({team}); /* {slots} is read */\n\
             {ind}}}",
            name = c.name,
            mine = c.mine,
            outer = c.outer,
        );
    }
}
