//! pragma2cuda: C with OpenMP / OpenACC offload pragmas in, readable CUDA C out.
//!
//! The crate is a pipeline; each module is one stage and data flows one way:
//!
//! ```text
//! source (text, spans, pragma masking)
//!   -> directives (pragma grammar, parser)
//!   -> front (tree-sitter C tree, pragmas attached to statements)
//!   -> sema (symbols, loop analysis, data sharing)
//!   -> valid (every directive checked against the specifications, one rule per file)
//!   -> lower (region IR: execution model, loop schedule, data mapping, reductions)
//!   -> emit (CUDA text from templates/)
//! ```
//!
//! `files` reads the input and writes the output; the tools (`tools::verify`,
//! `tools::suite`) sit on top and only call [`translate`] and friends. The
//! command line lives in the binary (`src/main.rs`, `src/cli/`). See ARCHITECTURE.md for the code map.

pub mod diag;
pub mod directives;
pub mod emit;
pub mod files;
pub mod front;
pub mod ir;
pub mod lower;
pub mod lsp;
pub mod report;
pub mod sema;
pub mod source;
pub mod tools;
pub mod valid;

mod big_stack;
mod driver;

pub use driver::{
    lower_region_at, translate, EditorSession, Emit, Options, RegionDetails, RegionSummary,
    RegionView, Translation,
};
