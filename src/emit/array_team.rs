//! The CUDA text of array reductions over the threads of one team in a
//! generic-mode region (the scheme is `lower::reduction::array_generic`'s):
//! each thread takes its copy in its block's slice of the per-launch area
//! the host allocated (`emit::array_team_area`), fills it with the identity
//! and binds the variable's name to it; after the construct a barrier, the
//! element-wise combine in thread order into the original section
//! (`p2c_team_red_array`), and a barrier before the copies can be reused.
//! Kept apart from `emit/generic.rs`, which only calls these at its hooks.

use super::namer::Namer;
use crate::lower::generic::Generic;
use crate::lower::reduction::array_generic::TeamArrayRed;
use std::fmt::Write;

/// Generated names of one array reduction (`Generic::team_array_reds` order).
pub struct Names {
    /// The kernel's (and the parallel-region function's) parameter: the
    /// per-launch area of every block's copies.
    pub area: String,
    /// The block's copies in the area.
    copies: String,
    lo: String,
    len: String,
    /// This thread's copy.
    mine: String,
    k: String,
    /// The original variable under another name where the reduction's
    /// binding shadows it.
    outer: String,
}

pub fn names(g: &Generic, namer: &mut Namer) -> Vec<Names> {
    g.team_array_reds
        .iter()
        .map(|r| Names {
            area: namer.fresh(&format!("p2c_area_{}", r.var)),
            copies: namer.fresh(&format!("p2c_copies_{}", r.var)),
            lo: namer.fresh(&format!("p2c_lo_{}", r.var)),
            len: namer.fresh(&format!("p2c_len_{}", r.var)),
            mine: namer.fresh(&format!("p2c_mine_{}", r.var)),
            k: namer.fresh("p2c_k"),
            outer: namer.fresh(&format!("p2c_outer_{}", r.var)),
        })
        .collect()
}

/// The reductions of the construct at `pragma`, with their names.
pub fn of<'a>(
    g: &'a Generic,
    n: &'a [Names],
    pragma: crate::source::Span,
) -> Vec<(&'a TeamArrayRed, &'a Names)> {
    g.team_array_reds
        .iter()
        .zip(n)
        .filter(|(r, _)| r.construct == pragma)
        .collect()
}

/// Whether the reductions of the construct at `pragma` combine at the end
/// of their fork's `case`, where every thread of the block meets at named
/// barrier 4: the fork's own clause, or a loop that ends the region.
pub fn at_join(g: &Generic, pragma: crate::source::Span) -> bool {
    g.forks.iter().any(|f| f.pragma == pragma)
        || g.inner_loops
            .iter()
            .any(|(_, w)| w.pragma == pragma && w.red_at_join)
}

fn elem(r: &TeamArrayRed) -> String {
    r.elem.type_name()
}

/// Every thread that runs the construct: the bounds, evaluated once here,
/// and the block's slice of the area (the host sized it with the same
/// bounds, `lower::reduction::array_team_area`).
pub fn alloc(reds: &[(&TeamArrayRed, &Names)], ind: &str) -> String {
    let mut o = String::new();
    for (r, n) in reds {
        let t = elem(r);
        let _ = writeln!(
            o,
            "{ind}/* reduction({}: {}): the team's private copies of the section, the block's slice of the per-launch area */",
            r.op.as_str(),
            r.bounds.text
        );
        let _ = writeln!(
            o,
            "{ind}const long long {} = {}, {} = {};",
            n.lo, r.bounds.lo, n.len, r.bounds.len
        );
        let _ = writeln!(
            o,
            "{ind}{t} *const {} = {} + (unsigned long long)blockIdx.x * p2c_block_threads() * (unsigned long long)({} > 0 ? {} : 0);",
            n.copies, n.area, n.len, n.len
        );
    }
    o
}

/// `auto &outer = var;` for each reduction: the original variable for the
/// combine inside the scope where the binding shadows it.
pub fn outer_aliases(reds: &[(&TeamArrayRed, &Names)], ind: &str) -> String {
    let mut o = String::new();
    for (r, n) in reds {
        let _ = writeln!(o, "{ind}auto &{} = {};", n.outer, r.var);
    }
    o
}

/// RED_INIT: this thread's copy at the identity, the variable's name bound to it.
pub fn bind(reds: &[(&TeamArrayRed, &Names)], tid: &str, ind: &str) -> String {
    let mut o = String::new();
    for (r, n) in reds {
        let t = elem(r);
        let _ = writeln!(
            o,
            "{ind}/* reduction({}: {}): this thread's private copy of the section, every element init_val({}); `{}` names it */",
            r.op.as_str(),
            r.bounds.text,
            r.op.as_str(),
            r.var
        );
        let _ = writeln!(
            o,
            "{ind}{t} *{} = {} + (unsigned long long){tid} * (unsigned long long)({} > 0 ? {} : 0);",
            n.mine, n.copies, n.len, n.len
        );
        let _ = writeln!(
            o,
            "{ind}for (long long {k} = 0; {k} < {len}; {k}++)\n{ind}    {mine}[{k}] = {op}::identity<{t}>();",
            k = n.k,
            len = n.len,
            mine = n.mine,
            op = r.op.functor()
        );
        let _ = writeln!(
            o,
            "{ind}{}",
            crate::lower::reduction::array_bounds::bind(
                &t,
                &r.var,
                &r.ty,
                &format!("{} - {}", n.mine, n.lo)
            )
        );
    }
    o
}

/// RED_FINI: after `barrier`, threads 0 .. `threads`-1 combine the team's
/// copies element by element into the original section (`outer`: through
/// the aliases), then `barrier` again: the next run of the construct in
/// the block refills the copies.
#[allow(clippy::too_many_arguments)]
pub fn combine(
    reds: &[(&TeamArrayRed, &Names)],
    tid: &str,
    threads: &str,
    team: &str,
    barrier: &str,
    outer: bool,
    ind: &str,
) -> String {
    let mut o = String::new();
    if reds.is_empty() {
        return o;
    }
    let _ = writeln!(o, "{ind}{barrier} /* every thread's copy is complete */");
    for (r, n) in reds {
        let t = elem(r);
        let target = if outer { &n.outer } else { &r.var };
        let _ = writeln!(
            o,
            "{ind}/* reduction({}: {}): each element of the section combines the team's copies in thread order */",
            r.op.as_str(),
            r.bounds.text
        );
        let _ = writeln!(
            o,
            "{ind}p2c_team_red_array<{}>(({t} *)({target}) + {}, {}, {team}, {}, {tid}, {threads});",
            r.op.functor(),
            n.lo,
            n.copies,
            n.len
        );
    }
    let _ = writeln!(
        o,
        "{ind}{barrier} /* the copies are no longer read: the next run may refill them */"
    );
    o
}
