//! The input file: its name, text and a line index.

use super::linemap::LineMap;
use super::Span;
use std::sync::Arc;

/// One input file. Offsets are bytes; lines and columns are 1-based.
///
/// A preprocessed input (`--preprocess`) also carries the [`LineMap`] from
/// its lines to the files the preprocessor read: [`SourceFile::origin`] gives
/// the user's file and line for an offset, which is what diagnostics, plans
/// and generated comments show.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
    origins: Option<Arc<LineMap>>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            name: name.into(),
            text,
            line_starts,
            origins: None,
        }
    }

    /// A preprocessed text with the map of its lines to the original files.
    pub fn with_origins(name: impl Into<String>, text: impl Into<String>, map: LineMap) -> Self {
        let mut f = SourceFile::new(name, text);
        f.origins = Some(Arc::new(map));
        f
    }

    /// The line map of a preprocessed input.
    pub fn origins(&self) -> Option<&LineMap> {
        self.origins.as_deref()
    }

    /// The file and 1-based line an offset comes from: the original file of
    /// a preprocessed input, otherwise this file. The column of an offset is
    /// [`SourceFile::line_col`]'s (a preprocessed line keeps its layout unless
    /// a macro was expanded in it).
    pub fn origin(&self, offset: usize) -> (&str, usize) {
        self.origin_of_line(self.line_of(offset.min(self.text.len())))
    }

    /// [`SourceFile::origin`] of the 1-based line `line` of this text.
    pub fn origin_of_line(&self, line: usize) -> (&str, usize) {
        match self.origins.as_deref().and_then(|m| m.origin(line)) {
            Some(o) => o,
            None => (self.name.as_str(), line),
        }
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    /// 1-based (line, column) of a byte offset; the column counts bytes.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line_of(offset);
        (line, offset - self.line_starts[line - 1] + 1)
    }

    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }

    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.text.len())
    }
}
