//! OpenMP `linear` on an SPMD loop (`lower::linear`, `ir::region::Linear`):
//! the host reads the original's value from its device copy and the step,
//! the kernel gets both by value and sets the variable's copy at the start
//! of every iteration; the lastprivate store writes the last one back.

use std::fmt::Write as _;

use crate::emit::namer::Namer;
use crate::ir::region::Region;

/// Per linear variable (`r.linear` order): the kernel parameters holding
/// the original's value and the step.
pub(super) fn names(r: &Region, namer: &mut Namer) -> Vec<(String, String)> {
    r.linear
        .iter()
        .map(|l| {
            let name = &r.vars[l.var].sym.name;
            (
                namer.fresh(&format!("p2c_linear_{name}")),
                namer.fresh(&format!("p2c_linear_step_{name}")),
            )
        })
        .collect()
}

/// The kernel parameters of variable `i` if it is linear.
pub(super) fn params(r: &Region, i: usize, names: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (l, (orig, step)) in r.linear.iter().zip(names) {
        if l.var == i {
            let t = r.vars[i].sym.ty.unqualified_base();
            out.push(format!("{t} {orig}"));
            out.push(format!("long long {step}"));
        }
    }
    out
}

/// The host code that reads variable `i`'s original value from its device
/// copy `dev` and evaluates its step, and the launch arguments they give.
pub(super) fn host_args(
    r: &Region,
    i: usize,
    names: &[(String, String)],
    dev: &str,
    w: &str,
    h: &mut String,
) -> Vec<String> {
    let mut args = Vec::new();
    for (l, (orig, step)) in r.linear.iter().zip(names) {
        if l.var == i {
            let t = r.vars[i].sym.ty.unqualified_base();
            let _ = writeln!(
                h,
                "    {t} {orig}; /* linear: the original's value, before any iteration */\n    \
                 p2c_check(cudaMemcpy(&{orig}, {dev}, sizeof {orig}, cudaMemcpyDeviceToHost), {w}, \"reading a linear variable's device copy\");\n    \
                 const long long {step} = (long long)({});",
                l.step
            );
            args.push(orig.clone());
            args.push(step.clone());
        }
    }
    args
}

/// At the start of iteration `iter`: each linear variable's copy from the
/// original's value and the step.
pub(super) fn iteration_starts(r: &Region, names: &[(String, String)], iter: &str) -> String {
    let mut k = String::new();
    for (l, (orig, step)) in r.linear.iter().zip(names) {
        let name = &r.vars[l.var].sym.name;
        let _ = writeln!(
            k,
            "        {name} = {orig} + (long long)({iter}) * {step}; /* linear */"
        );
    }
    k
}
