//! The CUDA text of array reductions over the threads of one team in a
//! generic-mode region (the scheme is `lower::reduction::array_generic`'s):
//! each thread takes its copy in its block's slice of the per-launch area
//! the host allocated (`emit::array_team_area`), fills it with the identity
//! and binds the variable's name to it; after the construct a barrier, the
//! element-wise combine in thread order into the original section
//! (`p2c_team_red_array`), and a barrier before the copies can be reused.
//! Kept apart from `emit/generic.rs`, which only calls these at its hooks.

use super::namer::Namer;
use crate::ir::generic::Generic;
use crate::ir::reduction::TeamArrayRed;
use crate::ir::Region;
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
    /// `p2c_fork_zero` before the construct, and again for the combine,
    /// with the bounds computed from it there.
    zero: String,
    zero_fini: String,
    lo_fini: String,
    len_fini: String,
    /// Whether the first index / the length names a variable of the region
    /// (a kernel parameter); the others are constants (literals, macros,
    /// `sizeof`), computed where they are used.
    lo_varies: bool,
    len_varies: bool,
}

impl Names {
    fn per_fork(&self) -> bool {
        self.lo_varies || self.len_varies
    }
}

/// Whether the C expression `e` names one of the region's variables.
fn names_var(r: &Region, e: &str) -> bool {
    r.vars
        .iter()
        .any(|v| crate::source::mask::mentions_word(e, &v.sym.name))
}

pub fn names(region: &Region, g: &Generic, namer: &mut Namer) -> Vec<Names> {
    g.team_array_reds
        .iter()
        .map(|r| {
            let (lo_varies, len_varies) = (
                names_var(region, &r.bounds.lo),
                names_var(region, &r.bounds.len),
            );
            let mut n = Names {
                lo_varies,
                len_varies,
                area: namer.fresh(&format!("p2c_area_{}", r.var)),
                copies: namer.fresh(&format!("p2c_copies_{}", r.var)),
                lo: namer.fresh(&format!("p2c_lo_{}", r.var)),
                len: namer.fresh(&format!("p2c_len_{}", r.var)),
                mine: namer.fresh(&format!("p2c_mine_{}", r.var)),
                k: namer.fresh("p2c_k"),
                outer: namer.fresh(&format!("p2c_outer_{}", r.var)),
                zero: String::new(),
                zero_fini: String::new(),
                lo_fini: String::new(),
                len_fini: String::new(),
            };
            // Only bounds that name a variable are computed per fork.
            if n.per_fork() {
                n.zero = namer.fresh(&format!("p2c_zero_{}", r.var));
                n.zero_fini = namer.fresh(&format!("p2c_zero_{}", r.var));
                n.lo_fini = namer.fresh(&format!("p2c_lo_{}", r.var));
                n.len_fini = namer.fresh(&format!("p2c_len_{}", r.var));
            }
            n
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

/// The block's slice of the area for the length `len` (a `long long`);
/// the block's index from `zero` when the length varies.
fn slice(n: &Names, len: &str, zero: &str) -> String {
    let block = if n.len_varies {
        format!("p2c_per_fork(blockIdx.x, {zero})")
    } else {
        "blockIdx.x".to_string()
    };
    format!(
        "{} + (unsigned long long){block} * p2c_block_threads() * (unsigned long long)({len} > 0 ? {len} : 0)",
        n.area
    )
}

/// The section's bounds as `long long`s named `lo` and `len`, those that
/// name a variable computed from `zero` (`p2c_fork_zero`).
fn bounds(r: &TeamArrayRed, n: &Names, lo: &str, len: &str, zero: &str) -> String {
    let fresh = |e: &str, varies: bool| {
        if varies {
            format!("p2c_per_fork({e}, {zero})")
        } else {
            e.to_string()
        }
    };
    format!(
        "const long long {lo} = {}, {len} = {};",
        fresh(&r.bounds.lo, n.lo_varies),
        fresh(&r.bounds.len, n.len_varies)
    )
}

/// Every thread that runs the construct: the bounds, evaluated here, and
/// the block's slice of the area (the host sized it with the same bounds,
/// `lower::reduction::array_team_area`). They are computed from the fork
/// word `work` (`p2c_fork_zero`, `p2c_per_fork`): else nvcc and ptxas
/// compute them once, before the workers' loop, and keep them in registers
/// through every parallel region of the kernel.
pub fn alloc(reds: &[(&TeamArrayRed, &Names)], work: &str, ind: &str) -> String {
    let mut o = String::new();
    for (r, n) in reds {
        let t = elem(r);
        let _ = write!(
            o,
            "{ind}/* reduction({}: {}): the team's private copies of the section, the block's slice of the per-launch area",
            r.op.as_str(),
            r.bounds.text
        );
        if n.per_fork() {
            let _ = writeln!(
                o,
                ";\n{ind} * computed at each fork (p2c_fork_zero), not kept in registers across the workers' loop */\n{ind}const unsigned {} = p2c_fork_zero({work});",
                n.zero
            );
        } else {
            let _ = writeln!(o, " */");
        }
        let _ = writeln!(o, "{ind}{}", bounds(r, n, &n.lo, &n.len, &n.zero));
        let _ = writeln!(
            o,
            "{ind}{t} *const {} = {};",
            n.copies,
            slice(n, &n.len, &n.zero)
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
        if n.len_varies {
            // A length known only at run time: nvcc unrolled the fill by 4
            // with 64-bit counters, a peak of such kernels (BENCHMARKS.md).
            let _ = writeln!(o, "{ind}P2C_NO_UNROLL");
        }
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
            super::bind::bind(&t, &r.var, &r.ty, &format!("{} - {}", n.mine, n.lo))
        );
    }
    o
}

/// RED_FINI: after `barrier`, threads 0 .. `threads`-1 combine the team's
/// copies element by element into the original section (`outer`: through
/// the aliases), then `barrier` again: the next run of the construct in
/// the block refills the copies. The bounds and the slice are computed
/// again from a new `p2c_fork_zero` rather than kept through the construct.
#[allow(clippy::too_many_arguments)]
pub fn combine(
    reds: &[(&TeamArrayRed, &Names)],
    work: &str,
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
        if !n.per_fork() {
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
            continue;
        }
        let _ = writeln!(
            o,
            "{ind}{{ /* reduction({}: {}): each element of the section combines the team's copies in thread order;\n{ind}   * bounds and slice computed again (p2c_fork_zero), not kept in registers through the construct */",
            r.op.as_str(),
            r.bounds.text
        );
        let _ = writeln!(
            o,
            "{ind}    const unsigned {} = p2c_fork_zero({work});",
            n.zero_fini
        );
        let _ = writeln!(
            o,
            "{ind}    {}",
            bounds(r, n, &n.lo_fini, &n.len_fini, &n.zero_fini)
        );
        let _ = writeln!(
            o,
            "{ind}    p2c_team_red_array<{}>(({t} *)({target}) + {}, {}, {team}, {}, {tid}, {threads});",
            r.op.functor(),
            n.lo_fini,
            slice(n, &n.len_fini, &n.zero_fini),
            n.len_fini
        );
        let _ = writeln!(o, "{ind}}}");
    }
    let _ = writeln!(
        o,
        "{ind}{barrier} /* the copies are no longer read: the next run may refill them */"
    );
    o
}
