//! The C-level values the IR is made of: types, variables and their
//! data-sharing attributes, canonical loop nests, clause sections. The
//! directive parser and semantic analysis build them (as naga's front ends
//! build naga's types); the region IR, lowering and the emitter read them.
//!
//! Architecture invariant: `ir::c` is the foundation of plain data that the
//! stages before lowering may import (`directives`, `front`, `sema`,
//! `valid`); it imports only `source` and `diag`, never the rest of `ir`.
//! Its functions are pure functions of these values (predicates, accessors,
//! the spelling of a C type or of an operator's prelude name); reading them
//! from C text or a syntax tree stays in `directives` and `sema`.
//! `tests/architecture.rs` checks the imports.

mod clauses;
mod loops;
mod sharing;
mod types;

pub use crate::source::Model;
pub use clauses::{ExprText, Section};
pub use loops::{CanonLoop, TestOp};
pub use sharing::{
    Attr, MapKind, MapMods, RedOp, VarAttr, ARRAY_PARAM_WHOLE, DEVICE_PTR, ENCLOSING_DEVICE_PTR,
    EXPLICIT, HAS_DEVICE_ADDR, LOOP_VAR, POINTER_ATTACH, POINTER_ITSELF,
};
pub use types::{Arith, CType, Deriv, Layout, Storage, Symbol};
