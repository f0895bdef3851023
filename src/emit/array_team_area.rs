//! The host side of the per-launch area that holds the private copies of
//! the array reductions over a team in a generic-mode region
//! (`lower::reduction::array_team_area`): before the launch the host
//! evaluates each section's length, allocates blocks x threads per block x
//! length elements with `cudaMalloc` (a failure is a located runtime
//! error, never a kernel that stops), passes the area after the private
//! arrays' arguments, and frees it after the kernel. The kernel hands the
//! area on to its parallel-region function, where `emit::array_team` takes
//! each block's slice.

use super::array_team::Names;
use super::namer::Namer;
use super::region::{HostParts, LaunchSize};
use crate::ir::generic::Generic;
use crate::ir::Region;
use std::fmt::Write;

/// Host-side names of one area (`Generic::team_array_reds` order).
pub struct HostNames {
    len: String,
    area: String,
}

pub fn host_names(r: &Region, namer: &mut Namer) -> Vec<HostNames> {
    r.generic
        .iter()
        .flat_map(|g| g.team_array_reds.iter())
        .map(|a| HostNames {
            len: namer.fresh(&format!("p2c_len_{}", a.var)),
            area: namer.fresh(&format!("p2c_area_{}", a.var)),
        })
        .collect()
}

/// The kernel's (and the parallel-region function's) parameters, in the
/// order of [`host`]'s arguments.
pub fn params(g: &Generic, n: &[Names]) -> Vec<String> {
    g.team_array_reds
        .iter()
        .zip(n)
        .map(|(a, n)| format!("{} *{}", a.elem.type_name(), n.area))
        .collect()
}

/// The bytes of the copies of one thread, for `p2c_array_red_blocks`
/// (a launch sized from the trip count keeps the areas within its budget).
pub fn bytes_per_thread(r: &Region) -> Vec<String> {
    r.generic
        .iter()
        .flat_map(|g| g.team_array_reds.iter())
        .map(|a| {
            format!(
                "(unsigned long long)({}) * sizeof({})",
                a.bounds.len,
                a.elem.type_name()
            )
        })
        .collect()
}

/// Host code before the launch (`blocks` and `per_block` are known); pushes
/// the arguments and the `cudaFree` to run after the kernel.
pub fn host(r: &Region, hn: &[HostNames], size: &LaunchSize<'_>, out: HostParts<'_>) {
    let LaunchSize {
        blocks,
        per_block,
        w,
        ind,
    } = *size;
    let HostParts {
        code: h,
        args,
        exits,
    } = out;
    let Some(g) = &r.generic else {
        return;
    };
    for (a, n) in g.team_array_reds.iter().zip(hn) {
        let t = a.elem.type_name();
        let _ = writeln!(
            h,
            "{ind}/* reduction({}: {}): a private copy of the section for every thread of every block, per launch */",
            a.op.as_str(),
            a.bounds.text
        );
        let _ = writeln!(
            h,
            "{ind}const long long {len} = {};\n{ind}{t} *{area} = nullptr;\n{ind}p2c_check(cudaMalloc((void **)&{area}, (size_t){blocks} * (size_t)({per_block}) * (size_t)({len} > 0 ? {len} : 1) * sizeof({t})), {w}, \"cudaMalloc\");",
            a.bounds.len,
            len = n.len,
            area = n.area,
        );
        args.push(n.area.clone());
        exits.push(format!(
            "p2c_check(cudaFree({}), {w}, \"cudaFree\");",
            n.area
        ));
    }
}

/// Array reductions of the compute construct that a loop over all teams'
/// threads reduces over each team (`lower::reduction::array_over_teams`):
/// the parallel-region function takes the team's copy, which the kernel
/// bound to the name, as a pointer (declaration, argument).
pub fn team_copies(r: &Region, g: &Generic) -> Vec<(String, String)> {
    r.array_reductions
        .iter()
        .filter(|a| g.team_array_reds.iter().any(|t| t.var == a.var))
        .map(|a| (a.ty.decayed().declare(&a.var), a.var.clone()))
        .collect()
}
