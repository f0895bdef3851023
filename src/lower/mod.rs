//! Lowering: from a checked directive and its analysed loop nest to the
//! region IR (`ir`), which says how the region runs on the GPU: the launch
//! shape, how iterations are spread over blocks and threads, where every
//! variable lives, and the reductions in the abstract form of seed 001.
//!
//! Architecture invariant: lowering decides everything the emitter writes;
//! the emitter makes no decision of its own beyond spelling.

pub mod acc_attach;
pub mod acc_auto;
pub mod acc_modifiers;
pub mod acc_runtime;
pub mod allocators;
pub mod asynchrony;
pub mod atomic;
pub mod build;
pub mod chunk;
pub mod closely_nested;
pub mod collapse;
pub mod counter;
pub mod cxx;
pub mod data;
pub mod declare;
pub mod declare_variant;
pub mod default_private;
pub mod device_clause;
pub mod device_complex;
pub mod device_long_double;
pub mod file;
pub mod gen_lastprivate;
pub mod generic;
pub mod host_teams;
pub mod linear;
pub mod localtype;
pub mod orphan;
pub mod orphan_clauses;
pub mod orphan_shadow;
pub mod plan;
pub mod privarray;
pub mod reduction;
pub mod requires;
mod shape;
pub mod sharing_report;
pub mod split;
pub mod staging;
pub mod target_parallel_red;
pub mod target_tasks;
pub mod team_limit;
pub mod teams_lastprivate;
pub mod tile;

pub use build::build_region;
