//! The region IR: what lowering decided, in types only. Lowering builds it
//! from the analysed C and the checked directives; the emitter reads it and
//! nothing earlier (besides source spans and diagnostics) to spell CUDA.
//!
//! Architecture invariant: `ir` imports nothing from `lower` or `emit`; no
//! function here reads C or writes CUDA (small constructors and accessors
//! only). Its C-level values (`ir::c`) are built by the stages before
//! lowering, which may import that module and no other of `ir`.

pub mod atomic;
pub mod c;
pub mod data;
pub mod declare;
pub mod edit;
pub mod generic;
pub mod localtype;
pub mod orphan;
pub mod privarray;
pub mod reduction;
pub mod region;
pub mod staging;
pub mod team_limit;

pub use region::*;

/// Everything lowering decided for one file: the offloaded regions, the
/// data constructs and the device declarations (with the orphaned parallel
/// constructs of device functions). The emitter and the reports read it.
pub struct Module {
    pub regions: Vec<Region>,
    pub data: Vec<data::DataOp>,
    pub declare: declare::DeclarePlan,
}
