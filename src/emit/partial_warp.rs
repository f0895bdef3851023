//! Parallel regions whose team ends in a partial warp (more than 32 threads,
//! not a multiple of 32) and that hold team barriers.
//!
//! A named barrier counts whole warps: a thread that arrives waits for every
//! non-exited thread of its warp (PTX ISA, `barrier`), so such a team's
//! barriers are a software barrier in shared memory over its whole warps
//! (templates/p2c_generic.cuh). `p2c_team_enter` readies it at the start of
//! the region; the lanes of the last warp beyond the team size take part in
//! every phase from `p2c_team_idle` until the team's threads end the region
//! with `p2c_team_release`. All three are no-ops for teams of whole warps or
//! of at most 32 threads, which the team size decides at run time
//! (`num_threads` may be an expression).

use std::fmt::Write;

/// Every thread, at the start of a region with team barriers.
pub fn enter(out: &mut String, ind: &str, tid: &str, team: &str) {
    let _ = writeln!(
        out,
        "{ind}p2c_team_enter({tid}, {team}); /* a partial last warp: the team barriers' state */"
    );
}

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
