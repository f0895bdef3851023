//! The iteration counter of a worksharing loop over a team's threads
//! (generic mode): 32 bits where the trip count fits, 64 bits otherwise.
//!
//! A 64-bit counter and trip count take two registers each for the whole
//! loop. A loop over one variable of at most 32 bits (not collapsed) has
//! fewer than 2^32 iterations unless it overflows its variable (`i <=
//! INT_MAX`): the device checks the count (`p2c_trip32`, the kernel traps
//! otherwise) and the step saturates at 2^32 - 1 (`p2c_next32`), so no
//! counter wraps around. clang picks a 32-bit counter for such loops too.
//!
//! Measured (ptxas -v, sm_90, BENCHMARKS.md): `omp_generic_reduction_array`'s
//! `section_max_L61` 31 registers with a 64-bit counter, 28 with a 32-bit one
//! (clang 29); a few other generic kernels take one or two more (still at or
//! below clang). The same counter in SPMD kernels (`emit/region.rs`) gave
//! `omp_reduce_float`'s `dev_td_L107` 28 instead of 29 but 1 to 6 more to
//! about sixty OpenACC gang/worker/vector kernels (the saturating step keeps
//! `~stride` live), so SPMD loops keep their 64-bit counter.

use crate::sema::arith::{classify, Arith};
use crate::sema::CType;
use std::collections::HashMap;

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
