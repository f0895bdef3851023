//! Applying the edit lists ([`crate::ir::edit`]) to the original input,
//! optionally marking where each copied run comes from.

pub use crate::ir::edit::{apply, Edit};
use crate::source::Span;

/// [`apply`], with every run of bytes copied from `text` marked with where
/// it comes from when `marks` is set (see [`super::lines`]): the markers
/// become `#line` directives once the whole file is written.
pub fn apply_with(text: &str, within: Span, edits: &[Edit], marks: bool) -> String {
    crate::ir::edit::splice(text, within, edits, |out, from, chunk| {
        if marks {
            super::lines::mark_copied(out, from, chunk);
        } else {
            out.push_str(chunk);
        }
    })
}
