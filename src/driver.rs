//! Runs the pipeline stages in order. The only module that knows all stages.

use crate::diag::{Diagnostic, Diagnostics};
use crate::source::SourceFile;

/// What to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Cuda,
    Directives,
    DirectivesJson,
    Plan,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub emit: Emit,
}

impl Default for Options {
    fn default() -> Self {
        Options { emit: Emit::Cuda }
    }
}

/// The result of a translation: the output text (absent when errors made it
/// impossible) and every diagnostic, sorted by position.
#[derive(Clone, Debug)]
pub struct Translation {
    pub output: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Translation {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// One region lowered by itself, for an editor.
#[derive(Clone, Debug)]
pub struct RegionView {
    pub pragma: crate::source::Span,
    pub plan: String,
    pub cuda: String,
}

/// Translates one file. Never panics; returns the output with all diagnostics.
pub fn translate(file: &SourceFile, opts: &Options) -> Translation {
    let mut diags = Diagnostics::new();
    let _ = opts;
    let _ = file;
    let output = None;
    let _ = &mut diags;
    Translation { output, diagnostics: diags.into_sorted() }
}

/// Lowers the region whose pragma or statement contains `offset`.
pub fn lower_region_at(file: &SourceFile, offset: usize) -> (Option<RegionView>, Vec<Diagnostic>) {
    let _ = (file, offset);
    (None, Vec::new())
}
