//! Tools on top of the pipeline: `verify` (translate, build, run, compare) and
//! `suite` (run third-party test programs through `verify`).

pub mod compare;
pub mod emu_pch;
pub mod emu_shared;
pub mod leftover;
pub mod run;
pub mod suite;
pub mod verify;
