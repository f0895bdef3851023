//! How the thread that ran the sequentially last iteration of a generic-mode
//! worksharing loop (`emit/generic.rs`, `ws_loop`; any spread: the team's
//! threads, the teams, every thread of every team) stores a plain
//! `lastprivate` item into the original, which the loop's code names under
//! an alias taken before the private copy shadows it:
//! - a scalar: assigned;
//! - a whole array (`sema::lastprivate_array`): its bytes, in words of its
//!   alignment (`p2c_copy_words`, as `emit/lastprivate_array.rs`);
//! - a variable of the loop nest (`for (i = 0; i < n; i++)` with `i`
//!   declared before the loop): its value after the sequential loop, the
//!   lower bound plus the trip count times the step, as the SPMD path
//!   writes it. The nest declares each iteration's variable itself, so this
//!   item gets no private copy (it would be an unused shadow).

use crate::ir::c::CType;
use crate::ir::generic::{PrivKind, PrivVar, WsLoop};
use std::fmt::Write as _;

/// Whether `p` is a plain lastprivate of one of the loop's own variables.
pub fn is_loop_var(w: &WsLoop, p: &PrivVar) -> bool {
    p.kind == (PrivKind::Lastprivate { conditional: false })
        && w.nest.iter().any(|l| l.var == p.name)
}

/// The aliases of the loop variables' originals (no private copies); each
/// `(name, alias)` is pushed onto `lastp`.
pub fn loop_var_aliases(
    w: &WsLoop,
    lastp: &mut Vec<(String, String)>,
    namer: &mut crate::emit::namer::Namer,
    out: &mut String,
    ind: &str,
) {
    for p in w.privates.iter().filter(|p| is_loop_var(w, p)) {
        let outer = namer.fresh(&format!("p2c_outer_{}", p.name));
        let _ = writeln!(out, "{ind}auto &{outer} = {};", p.name);
        lastp.push((p.name.clone(), outer));
    }
}

/// The statement storing `name` into its original `outer`; `per` holds
/// each loop's `(lb, step, trip)` as `region::nest_bounds` named them.
pub fn assign_back(
    w: &WsLoop,
    per: &[(String, String, String)],
    name: &str,
    outer: &str,
) -> String {
    if let Some(idx) = w.nest.iter().position(|l| l.var == name) {
        if let (Some(l), Some(ty), Some((lb, step, trip))) =
            (w.nest.get(idx), w.types.get(idx), per.get(idx))
        {
            let sign = if l.test.increasing() { "+" } else { "-" };
            let t = ty.type_name();
            let value = super::fold::scaled(&t, trip, step);
            return format!("{outer} = ({t})({lb} {sign} {value})");
        }
    }
    let array = w
        .privates
        .iter()
        .any(|p| p.name == name && is_whole_array(&p.ty) && p.section.is_none());
    if array {
        format!("p2c_copy_words<__alignof__({name})>({outer}, {name}, sizeof {name})")
    } else {
        format!("{outer} = {name}")
    }
}

fn is_whole_array(ty: &CType) -> bool {
    ty.is_array()
}
