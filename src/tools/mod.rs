//! Tools on top of the pipeline: `verify` (translate, build, run, compare) and
//! `suite` (run third-party test programs through `verify`).

pub mod compare;
pub mod emu_pch;
pub mod emu_shared;
pub mod leftover;
pub mod ptxas;
pub mod run;
pub mod suite;
pub mod suite_env;
pub mod suite_known;
pub mod verify;

/// Exit status: success (warnings allowed; verify: all runs agree).
pub const EXIT_OK: i32 = 0;
/// Exit status: the diagnostics contain errors; verify/suite: a disagreement
/// or a failed build or run.
pub const EXIT_ERRORS: i32 = 1;
/// Exit status: a usage error, or an input or output that cannot be used.
pub const EXIT_USAGE: i32 = 2;
