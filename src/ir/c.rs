//! The C-level values the IR is made of: types, variable attributes, loop
//! nests, clause sections. Semantic analysis defines them; they are named
//! here so that the emitter reads them through `ir` like the rest of the IR.

pub use crate::directives::{Model, Section};
pub use crate::sema::arith::Arith;
pub use crate::sema::layout::Layout;
pub use crate::sema::loops::{CanonLoop, TestOp};
pub use crate::sema::sharing::{Attr, MapKind, MapMods, RedOp, VarAttr, LOOP_VAR};
pub use crate::sema::{CType, Deriv};
