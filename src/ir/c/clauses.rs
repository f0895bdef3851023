//! The parts of a directive's clauses the IR keeps: C expressions as text
//! and array sections. The directive parser (`directives`) builds them.

use crate::source::Span;
use serde::Serialize;

/// A C expression kept as text (whitespace and comments normalised to single
/// spaces, continuations removed), with the span of its original text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExprText {
    pub text: String,
    pub span: Span,
}

/// One dimension of an array section: `[lower : length : stride]`, or a plain
/// subscript `[index]` (then `is_index` is true and the index is in `lower`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Section {
    pub lower: Option<ExprText>,
    pub length: Option<ExprText>,
    pub stride: Option<ExprText>,
    pub is_index: bool,
    pub span: Span,
}
