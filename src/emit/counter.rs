//! The iteration counter of a worksharing loop over a team's threads
//! (generic mode): 32 bits where the trip count fits, 64 bits otherwise;
//! and the bound of an SPMD loop run by one thread per block.
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
//! `~stride` live), so SPMD loops keep their 64-bit counter; block-only
//! loops (one thread per block, [`blocks_head`]) compare it with a 32-bit
//! bound that the host checks.

/// The `for` line of a worksharing loop over a team's threads (generic
/// mode, `start` and `stride` below 2^32: thread and team numbers) from
/// `start` to `total` (the nest's trip count, `unsigned long long`). With a
/// 32-bit counter (`narrow`: `WsLoop::narrow_counter`) the count is checked
/// on the device (`p2c_trip32`). Not unrolled: the team's initial thread
/// runs the same code with a team size nvcc knows, and nvcc unrolled it
/// fully (25 loads of `omp_generic_reduction`'s `main_L111` before the
/// first add: 30 registers, 24 without, clang 26).
pub(crate) fn team_head(
    narrow: bool,
    it: &str,
    end: &str,
    start: &str,
    stride: &str,
    total: &str,
    ind: &str,
) -> String {
    if narrow {
        format!(
            "{ind}P2C_NO_UNROLL\n{ind}for (unsigned {it} = {start}, {end} = p2c_trip32({total}); {it} < {end}; {it} = p2c_next32({it}, {stride})) {{"
        )
    } else {
        format!(
            "{ind}P2C_NO_UNROLL\n{ind}for (unsigned long long {it} = {start}; {it} < {total}; {it} += {stride}) {{"
        )
    }
}

/// The `for` line of an SPMD loop whose teams run it on one thread each
/// (`Schedule::BlockOnly`: `teams distribute` without `parallel for`, an
/// OpenACC gang-only loop): block `b` runs iterations `b`, `b + gridDim.x`,
/// ... of `trip` (the kernel's `unsigned long long` parameter). When
/// `narrow` (`Region::narrow_counter`) the host has checked that `trip` is
/// below 2^32 ([`host_check32`]) and the counter is compared with its low
/// 32 bits (`end`); the counter keeps 64 bits, so `it + gridDim.x` never
/// wraps (below 2^32 + 2^31). Otherwise the plain 64-bit loop.
///
/// Measured (ptxas -v, sm_90, BENCHMARKS.md): the 32-bit bound takes one
/// register instead of two and lets ptxas compare the counter's high word
/// with zero: `omp_reduce_float`'s `dev_td_L107` 29 -> 28 (clang 28), 16
/// block-only kernels 1 to 3 fewer, `omp_reduce_uchar`'s `dev_td_L133` 29 ->
/// 31 (clang 32; its peak is the last block's combine, allocated otherwise).
/// Checking the count on the device instead (`p2c_trip32`) kept
/// `dev_td_L107` at 29; a 32-bit counter (saturating step or countdown)
/// moved it out of ptxas' uniform registers: 1 to 5 more in 38 kernels.
pub(crate) fn blocks_head(narrow: bool, it: &str, end: &str, trip: &str, ind: &str) -> String {
    if narrow {
        format!(
            "{ind}/* {trip} < 2^32 (checked by the host): a 32-bit bound, a 64-bit counter that cannot wrap */\n\
             {ind}for (unsigned long long {it} = blockIdx.x, {end} = (unsigned){trip}; {it} < {end}; {it} += gridDim.x) {{"
        )
    } else {
        format!(
            "{ind}for (unsigned long long {it} = blockIdx.x; {it} < {trip}; {it} += gridDim.x) {{"
        )
    }
}

/// The host's check before launching a loop of [`blocks_head`] with a
/// 32-bit bound: 2^32 iterations or more of a loop over a variable of at
/// most 32 bits means the loop overflows its variable (`i <= INT_MAX`), which
/// the kernel must not run with a truncated count.
pub(crate) fn host_check32(trip: &str, where_: &str, ind: &str) -> String {
    format!(
        "{ind}if ({trip} > 0xffffffffull) /* the kernel's bound has 32 bits (the loop's variable) */\n\
         {ind}    p2c_fail({where_}, \"the loop overflows its variable\", \"2^32 or more iterations\");\n"
    )
}

/// The `for` line of an SPMD loop over the threads of the grid or of one
/// block (`start`, `stride`: 32-bit thread numbers). When `narrow`
/// (`Region::narrow_counter`) the counter has 32 bits: the host checked
/// that `trip` plus the stride is at most 2^32 ([`host_check_stride`]), so
/// the counter never wraps and `trip` fits. Otherwise the 64-bit counter.
///
/// Measured (ptxas -v, sm_90, BENCHMARKS.md): `omp_saxpy`'s `saxpy_L10` 20
/// -> 14 registers, `omp_enter_exit_functions`' kernels 16 -> 10. (A 32-bit
/// counter with a saturating step instead of the host's check cost 1 to 6
/// registers more in about sixty OpenACC kernels: it keeps `~stride` live.)
pub(crate) fn threads_head(
    narrow: bool,
    it: &str,
    trip: &str,
    start: &str,
    stride: &str,
    ind: &str,
) -> String {
    if narrow {
        format!(
            "{ind}for (unsigned {it} = {start}; {it} < (unsigned){trip}; {it} += {stride}) {{ /* {trip} + stride <= 2^32 (checked by the host) */"
        )
    } else {
        format!(
            "{ind}for (unsigned long long {it} = (unsigned long long){start}; {it} < {trip}; {it} += (unsigned long long){stride}) {{"
        )
    }
}

/// The host's check before launching a loop of [`threads_head`] with a
/// 32-bit counter: `stride` (every thread of the launch, or of one block;
/// an expression whose value does not wrap) more than the `trip` count
/// (`unsigned long long`) must stay within 32 bits. A loop over a
/// variable of at most 32 bits has at most 2^32 iterations unless it
/// overflows its variable; one within `stride` of 2^32 is refused at run
/// time with a located message (never run with a wrapping counter).
pub(crate) fn host_check_stride(trip: &str, stride: &str, where_: &str, ind: &str) -> String {
    format!(
        "{ind}if ({trip} + {stride} > 0x100000000ull) /* the kernel's counter has 32 bits (the loop's variable) */\n\
         {ind}    p2c_fail({where_}, \"the loop has too many iterations for a 32-bit counter\", \"2^32 less the launch's threads or more\");\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_loops_over_32_bit_variables_take_a_checked_32_bit_bound() {
        let head = blocks_head(true, "it", "end", "trip", "");
        assert!(head.contains("for (unsigned long long it = blockIdx.x, end = (unsigned)trip; it < end; it += gridDim.x)"), "{head}");
        let check = host_check32("trip", "where", "");
        assert!(check.starts_with("if (trip > 0xffffffffull)"), "{check}");
        assert!(check.contains("p2c_fail(where, "), "{check}");
    }

    #[test]
    fn thread_loops_over_32_bit_variables_take_a_checked_32_bit_counter() {
        let head = threads_head(true, "it", "trip", "a", "b", "");
        assert!(
            head.starts_with("for (unsigned it = a; it < (unsigned)trip; it += b) {"),
            "{head}"
        );
        let wide = threads_head(false, "it", "trip", "a", "b", "");
        assert_eq!(
            wide,
            "for (unsigned long long it = (unsigned long long)a; it < trip; it += (unsigned long long)b) {"
        );
        let check = host_check_stride("trip", "s", "where", "");
        assert!(
            check.starts_with("if (trip + s > 0x100000000ull)"),
            "{check}"
        );
        assert!(check.contains("p2c_fail(where, "), "{check}");
    }

    #[test]
    fn block_loops_over_wider_variables_or_nests_keep_the_64_bit_bound() {
        let plain = "for (unsigned long long it = blockIdx.x; it < trip; it += gridDim.x) {";
        assert_eq!(blocks_head(false, "it", "end", "trip", ""), plain);
    }
}
