//! The iteration counter of an SPMD kernel's loop: 32 bits where the trip
//! count fits, 64 bits otherwise.
//!
//! A 64-bit counter and trip count take two registers each for the whole
//! loop, and in a loop that keeps many values live (seven reductions) that is
//! the kernel's peak: ptxas gave `omp_reduce_float`'s `target teams
//! distribute` kernel 29 registers with a 64-bit counter and 28 (clang-19's
//! figure for the same C) with a 32-bit one. clang picks a 32-bit counter for
//! a loop over a 32-bit variable too.
//!
//! A loop over one variable of at most 32 bits (not collapsed, not tiled)
//! has fewer than 2^32 iterations unless it overflows its variable (`i <=
//! INT_MAX`); the host checks the count at the launch (`p2c_count32`, a
//! runtime error otherwise) and passes it as `unsigned`. In the kernel the
//! start and stride are taken at most 2^32 - 1 and the step saturates there
//! (`p2c_grid_start32`, `p2c_next32` in p2c_device.cuh), so no counter wraps
//! around however many threads run. Collapsed nests (whose product may
//! exceed 2^32), 64-bit and pointer variables and typedef names the prelude
//! does not know keep the 64-bit counter.

use crate::lower::{Region, Schedule};
use crate::sema::arith::{classify, Arith};
use crate::sema::CType;
use std::collections::HashMap;

/// Whether the region's loop runs with a 32-bit counter.
pub(crate) fn narrow(r: &Region) -> bool {
    r.tile.is_empty() && narrow_nest(&r.nest_types)
}

/// Whether a loop nest with variables of these types has fewer than 2^32
/// iterations unless a loop overflows its variable: one loop, over an
/// integer of at most 32 bits.
pub(crate) fn narrow_nest(types: &[CType]) -> bool {
    matches!(types, [t] if t.derivs.is_empty()
        && matches!(classify(&t.base, &HashMap::new()), Some(Arith::Int { bytes, .. }) if bytes <= 4))
}

/// The `for` line of a worksharing loop over a team's threads (generic
/// mode, `start` and `stride` below 2^32: thread and team numbers) from
/// `start` to `total` (the nest's trip count, `unsigned long long`). With a
/// 32-bit counter the count is checked on the device (`p2c_trip32`). Not
/// unrolled: the team's initial thread runs the same code with a team size
/// nvcc knows, and nvcc unrolled it fully (25 loads of `omp_generic_reduction`'s
/// `main_L111` before the first add: 30 registers, 24 without, clang 26).
pub(crate) fn team_head(
    types: &[CType],
    it: &str,
    end: &str,
    start: &str,
    stride: &str,
    total: &str,
    ind: &str,
) -> String {
    if narrow_nest(types) {
        format!(
            "{ind}P2C_NO_UNROLL\n{ind}for (unsigned {it} = {start}, {end} = p2c_trip32({total}); {it} < {end}; {it} = p2c_next32({it}, {stride})) {{"
        )
    } else {
        format!(
            "{ind}P2C_NO_UNROLL\n{ind}for (unsigned long long {it} = {start}; {it} < {total}; {it} += {stride}) {{"
        )
    }
}

/// The type of the kernel's trip count parameter.
pub(crate) fn trip_type(r: &Region) -> &'static str {
    if narrow(r) {
        "unsigned"
    } else {
        "unsigned long long"
    }
}

/// The host's argument for the kernel's trip count parameter.
pub(crate) fn trip_arg(r: &Region, trip: &str, where_: &str) -> String {
    if narrow(r) {
        format!("p2c_count32({trip}, {where_})")
    } else {
        trip.to_string()
    }
}

/// The `for` line of the kernel's loop over `it` from this thread's first
/// iteration to `trip`.
pub(crate) fn loop_head(r: &Region, it: &str, trip: &str) -> String {
    if narrow(r) {
        let (start, stride) = match r.schedule {
            Schedule::GridStride => ("p2c_grid_start32()", "p2c_grid_stride32()"),
            Schedule::BlockStride => ("p2c_thread_id()", "p2c_block_threads()"),
            Schedule::BlockOnly => ("blockIdx.x", "gridDim.x"),
            Schedule::Sequential => ("0u", "1u"),
        };
        format!(
            "    for (unsigned {it} = {start}; {it} < {trip}; {it} = p2c_next32({it}, {stride})) {{ /* 32-bit counter (emit/counter.rs) */"
        )
    } else {
        let (start, stride) = match r.schedule {
            Schedule::GridStride => (
                "(unsigned long long)blockIdx.x * p2c_block_threads() + p2c_thread_id()",
                "(unsigned long long)gridDim.x * p2c_block_threads()",
            ),
            Schedule::BlockStride => ("p2c_thread_id()", "p2c_block_threads()"),
            Schedule::BlockOnly => ("blockIdx.x", "gridDim.x"),
            Schedule::Sequential => ("0", "1"),
        };
        format!("    for (unsigned long long {it} = {start}; {it} < {trip}; {it} += {stride}) {{")
    }
}
