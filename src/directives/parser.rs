//! Placeholder: the recursive-descent directive parser (being written).
use super::ast::Directive;
use crate::diag::Diagnostic;
use crate::source::Span;

/// Parses the pragma whose text is `src[span]` (from `#` or `_Pragma` to the
/// end of its last continuation line). Returns `None` when the pragma is not
/// an `omp`/`acc` pragma at all. Offsets in the result are absolute.
pub fn parse_pragma(src: &str, span: Span) -> (Option<Directive>, Vec<Diagnostic>) {
    let _ = (src, span);
    (None, Vec::new())
}
