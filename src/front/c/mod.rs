//! The C parser of the front end: a hand-written lexer and recursive
//! descent parser whose tree has tree-sitter-c 0.24's shape (its node kinds,
//! field names, hidden and aliased rules), so the stages after it read the
//! same tree. The tree is an arena ([`tree`]); a parse is linear in the
//! text apart from short guesses where C is ambiguous.

mod build;
mod from_ts;
pub mod kinds;
mod lexer;
mod literal;
mod parser;
mod pplex;
mod tree;

pub use parser::MAX_PARSE_DEPTH;
pub use tree::{Node, Point, Range, Tree, TreeCursor};

/// The tree of `text`.
pub fn parse(text: &str) -> Tree {
    let src = text.as_bytes();
    parser::parse(src, lexer::lex(src))
}

/// tree-sitter-c's tree of `text` in the same arena (its error recovery):
/// the fallback where [`parse`]'s tree has an error.
pub fn parse_recovering(text: &str) -> Option<Tree> {
    from_ts::parse(text.as_bytes())
}
