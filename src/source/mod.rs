//! Source text, byte spans and line/column lookup.
//!
//! Every later stage refers to the user's file through [`Span`]s: byte ranges
//! into the original text, never into a rewritten copy.

pub mod cond;
mod file;
pub mod linemap;
pub mod literal;
pub mod macros;
pub mod mask;
mod model;
pub mod nesting;
pub mod pragma_text;
mod span;
pub mod words;

pub use file::SourceFile;
pub use model::Model;
pub use span::Span;
