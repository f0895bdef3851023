//! C++ keywords used as names in offloaded regions (`new`, `class`, a
//! file's own `bool`) are renamed in the whole text before lowering
//! (`lower::cxx::keywords::region_renames`). The translation, the editor's
//! `lower_region_at` and `EditorSession` all work on the renamed text and
//! place what they report back on the user's text with [`Renames::back`].

use super::{analyse, lower_all, scope_cache, Analysis, Options};
use crate::diag::Diagnostic;
use crate::emit::namer::Namer;
use crate::lower::cxx;
use crate::lower::file::offloaded_spans;
use crate::source::{SourceFile, Span};

/// Renames sorted by position, not overlapping: (span in the user's text, new name).
pub(super) struct Renames(pub(super) Vec<(Span, String)>);

impl Renames {
    /// The renames `translate` applies to `file` (empty for most files).
    pub(super) fn of(file: &SourceFile, a: &Analysis) -> Renames {
        if a.too_deep {
            return Renames(Vec::new());
        }
        let _scopes = scope_cache(file, a);
        let mut namer = Namer::new(&file.text);
        let mut ignored = Vec::new();
        let low = lower_all(file, a, &Options::default(), &mut namer, &mut ignored);
        Renames::from_lowered(file, a, &offloaded_spans(&low.regions))
    }

    /// The renames, given the offloaded spans of a lowering of `file`.
    pub(super) fn from_lowered(file: &SourceFile, a: &Analysis, offloaded: &[Span]) -> Renames {
        let pragmas: Vec<Span> = a.attached.iter().map(|at| at.directive.span).collect();
        Renames(cxx::keywords::region_renames(
            &a.tree,
            &file.text,
            offloaded,
            &pragmas,
            &mut LazyNamer(&file.text, None),
        ))
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `file` with the renames applied (its line map kept).
    pub(super) fn apply(&self, file: &SourceFile) -> SourceFile {
        let mut text = String::with_capacity(file.text.len() + 8 * self.0.len());
        let mut at = 0;
        for (s, new) in &self.0 {
            text.push_str(&file.text[at..s.start]);
            text.push_str(new);
            at = s.end;
        }
        text.push_str(&file.text[at..]);
        match file.origins() {
            Some(map) => SourceFile::with_origins(file.name.clone(), text, map.clone()),
            None => SourceFile::new(file.name.clone(), text),
        }
    }

    /// A position of the user's text in the renamed text.
    pub(super) fn forward(&self, p: usize) -> usize {
        let mut delta: isize = 0;
        for (s, new) in &self.0 {
            if p < s.start {
                break;
            }
            if p < s.end {
                return (s.start as isize + delta) as usize;
            }
            delta += new.len() as isize - s.len() as isize;
        }
        (p as isize + delta).max(0) as usize
    }

    /// A position of the renamed text in the user's text (inside a new
    /// name: the start of the name it replaced).
    pub(super) fn back(&self, p: usize) -> usize {
        let mut delta: isize = 0;
        for (s, new) in &self.0 {
            let start = (s.start as isize + delta) as usize;
            if p < start {
                break;
            }
            if p < start + new.len() {
                return s.start;
            }
            delta += new.len() as isize - s.len() as isize;
        }
        (p as isize - delta).max(0) as usize
    }

    pub(super) fn back_span(&self, s: Span) -> Span {
        let start = self.back(s.start);
        Span::new(start, self.back(s.end).max(start))
    }

    pub(super) fn back_diagnostics(&self, diags: &mut [Diagnostic]) {
        for d in diags {
            for l in &mut d.labels {
                l.span = self.back_span(l.span);
            }
        }
    }
}

/// A [`Namer`] of the text, made on the first name asked for (most files
/// rename nothing, and making it reads every word of the text).
struct LazyNamer<'t>(&'t str, Option<Namer>);

impl crate::ir::edit::FreshName for LazyNamer<'_> {
    fn fresh(&mut self, base: &str) -> String {
        let text = self.0;
        self.1.get_or_insert_with(|| Namer::new(text)).fresh(base)
    }
}

/// Analyses `file` and, when the translation renames keywords in it, the
/// renamed text instead: (the text analysed, its analysis, the renames).
pub(super) fn analyse_renamed(
    file: &SourceFile,
    diags: &mut Vec<Diagnostic>,
) -> (Option<SourceFile>, Analysis, Renames) {
    let mut first = Vec::new();
    let a = analyse(file, &mut first);
    let renames = Renames::of(file, &a);
    if renames.is_empty() {
        diags.extend(first);
        return (None, a, renames);
    }
    drop(a);
    let renamed = renames.apply(file);
    let a = analyse(&renamed, diags);
    (Some(renamed), a, renames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_map_both_ways() {
        // "int new = 1; new++;" with both `new` renamed to `new_`.
        let r = Renames(vec![
            (Span::new(4, 7), "new_".to_string()),
            (Span::new(13, 16), "new_".to_string()),
        ]);
        assert_eq!(r.forward(0), 0);
        assert_eq!(r.forward(5), 4);
        assert_eq!(r.forward(8), 9);
        assert_eq!(r.forward(16), 18);
        assert_eq!(r.back(9), 8);
        assert_eq!(r.back(6), 4);
        assert_eq!(r.back(18), 16);
    }
}
