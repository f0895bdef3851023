//! Front end: the C syntax tree of the masked file and the pragmas attached
//! to the statements they govern.
//!
//! Architecture invariant: the front end never fails. It returns the tree, the
//! attached pragmas and diagnostics; a region whose C text has a syntax
//! error is reported (E0003) and skipped by later stages.

mod attach;
pub mod c;
mod cparse;
pub mod depth;
pub mod fields;
pub mod metadirective;

pub use attach::{attach, function_name, Attached};
pub use cparse::{directive_blanks_last, parse_c, CTree};
