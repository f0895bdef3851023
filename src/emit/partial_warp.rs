//! Parallel regions whose team ends in a partial warp (more than 32 threads,
//! not a multiple of 32) and that hold team barriers.
//!
//! A named barrier counts whole warps: a thread that arrives waits for every
//! non-exited thread of its warp (PTX ISA, `barrier`), so the lanes of the
//! team's last warp beyond the team size must arrive at each team barrier
//! too, though they run none of the region. They wait in `p2c_team_idle`
//! (templates/p2c_generic.cuh), arriving at barrier 3 with a false
//! predicate of `barrier.red.or` until the team arrives once more with a
//! true one (`p2c_team_release`) at the end of the region. Both are no-ops
//! for teams of whole warps or of at most 32 threads, which the team size
//! decides at run time (`num_threads` may be an expression).

use std::fmt::Write;

/// The team's threads, at the end of a region with team barriers.
pub fn release(out: &mut String, ind: &str, team: &str) {
    let _ = writeln!(
        out,
        "{ind}p2c_team_release({team}); /* lanes of a partial last warp leave the team barriers */"
    );
}

/// The threads beyond the team, in place of the region.
pub fn idle(out: &mut String, ind: &str, tid: &str, team: &str) {
    let _ = writeln!(
        out,
        "{ind}p2c_team_idle({tid}, {team}); /* a partial last warp's lanes beyond the team arrive at its barriers */"
    );
}
