//! Semantic analysis over the C tree: the declarations visible at a region
//! (symbols), the variables a region uses (uses), canonical loop nests
//! (loops), and the data-sharing attribute of every used variable (sharing).
//!
//! Architecture invariant: sema reads the tree and the directives, never
//! rewrites text, and reports every problem as a located diagnostic.

pub mod ctype;
pub mod layout;
pub mod loops;
pub mod sharing;
pub mod symbols;
pub mod threadprivate;
pub mod uses;

pub use ctype::{CType, Deriv};
pub use symbols::{Storage, Symbol};
