//! Text edits on the original input: replacements and insertions, applied in
//! one pass so every byte that no edit touches is copied unchanged.

use crate::source::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub text: String,
    /// Among insertions at the same offset, lower goes first.
    pub order: u32,
}

impl Edit {
    pub fn replace(span: Span, text: impl Into<String>) -> Self {
        Edit {
            span,
            text: text.into(),
            order: 100,
        }
    }

    pub fn insert(at: usize, order: u32, text: impl Into<String>) -> Self {
        Edit {
            span: Span::new(at, at),
            text: text.into(),
            order,
        }
    }
}

/// The text of `within` with the edits that fall inside it applied.
/// Overlapping edits are a translator bug; the later one is skipped.
pub fn apply(text: &str, within: Span, edits: &[Edit]) -> String {
    apply_with(text, within, edits, false)
}

/// [`apply`], with every run of bytes copied from `text` marked with where
/// it comes from when `marks` is set (see [`super::lines`]): the markers
/// become `#line` directives once the whole file is written.
pub fn apply_with(text: &str, within: Span, edits: &[Edit], marks: bool) -> String {
    let mut es: Vec<&Edit> = edits
        .iter()
        .filter(|e| e.span.start >= within.start && e.span.end <= within.end)
        .collect();
    es.sort_by_key(|e| (e.span.start, e.span.end != e.span.start, e.order));
    let mut out = String::with_capacity(within.len() + 1024);
    let mut pos = within.start;
    for e in es {
        if e.span.start < pos {
            continue;
        }
        copy(&mut out, text, pos, e.span.start, marks);
        out.push_str(&e.text);
        pos = e.span.end;
    }
    copy(&mut out, text, pos, within.end, marks);
    out
}

/// Appends `text[from..to]`, between markers when `marks` is set.
fn copy(out: &mut String, text: &str, from: usize, to: usize, marks: bool) {
    let chunk = text.get(from..to).unwrap_or("");
    if chunk.is_empty() {
        return;
    }
    if marks {
        super::lines::mark_copied(out, from, chunk);
    } else {
        out.push_str(chunk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_in_order_and_keeps_other_bytes() {
        let t = "int a; int b;";
        let e = vec![
            Edit::insert(7, 2, "/*2*/"),
            Edit::insert(7, 1, "/*1*/"),
            Edit::replace(Span::new(4, 5), "x"),
        ];
        assert_eq!(
            apply(t, Span::new(0, t.len()), &e),
            "int x; /*1*//*2*/int b;"
        );
    }
}
