//! Directives: the grammar of OpenMP and OpenACC pragmas, the parser that
//! follows it (`grammar/` is the reference a person reads). Validation,
//! which needs the C around a directive, is the `valid` stage.
//!
//! Architecture invariant: parsing never fails and never panics. It returns
//! the directive it could recover (or `None`) together with every diagnostic.
//! The parser knows nothing of C: expressions inside clauses are kept as text.

pub mod ast;
#[cfg(test)]
mod catalogue_tests;
mod lexer;
mod parser;
mod print;
mod render;
pub(crate) mod suggest;
pub(crate) mod table;

pub use ast::{
    Arg, Clause, ClauseArgs, Directive, DirectiveArg, ExprText, ListItem, Model, Section, Word,
};
pub use parser::parse_pragma;
pub use print::print;
pub use render::{render_json, render_text};
