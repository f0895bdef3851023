//! Semantic analysis over the C tree: the declarations visible at a region
//! (symbols), the variables a region uses (uses), canonical loop nests
//! (loops), the data-sharing attribute of every used variable (sharing), and
//! the functions regions call, with what the device can run (calls).
//!
//! Architecture invariant: sema reads the tree and the directives, never
//! rewrites text, and reports every problem as a located diagnostic.

pub mod arith;
pub mod calls;
pub mod ctype;
pub mod device_lib;
pub mod fresh_pointer;
pub mod lastprivate_array;
pub mod layout;
pub mod loops;
pub mod map_merge;
pub mod param_extent;
pub mod pointer_itself;
pub mod privarray;
pub mod sharing;
pub mod symbols;
pub mod threadprivate;
pub mod uses;
pub mod visible;

pub use arith::Arith;
pub use ctype::{CType, Deriv};
pub use symbols::{Storage, Symbol};
