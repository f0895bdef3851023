//! Text edits on the original input, and the C-to-C++ plan lowering hands
//! the emitter: each edit a byte range of the input and its replacement.
//! Applied in one pass ([`splice`]) so every byte no edit touches is copied
//! unchanged.

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

/// What makes the C file valid C++ (decided by `lower::cxx`): casts,
/// renames, linkage, rewritten initializers, each an [`Edit`]; and whether
/// the file uses C99 complex numbers (the output then carries their
/// spellings).
#[derive(Clone, Debug, Default)]
pub struct CxxPlan {
    pub edits: Vec<Edit>,
    pub complex: bool,
}

/// A source of names no identifier of the file or of the output takes
/// (the emitter's namer), for the renames lowering decides.
pub trait FreshName {
    /// `base` if free, else a numbered variant; the name is then taken.
    fn fresh(&mut self, base: &str) -> String;
}

/// The text of `within` with the edits that fall inside it applied, each
/// run of bytes no edit touches passed to `copy` (offset, bytes).
/// Overlapping edits are a translator bug; the later one is skipped.
pub fn splice(
    text: &str,
    within: Span,
    edits: &[Edit],
    mut copy: impl FnMut(&mut String, usize, &str),
) -> String {
    let mut es: Vec<&Edit> = edits
        .iter()
        .filter(|e| e.span.start >= within.start && e.span.end <= within.end)
        .collect();
    es.sort_by_key(|e| (e.span.start, e.span.end != e.span.start, e.order));
    let mut out = String::with_capacity(within.len() + 1024);
    let mut pos = within.start;
    let mut run = |out: &mut String, from: usize, to: usize| {
        let chunk = text.get(from..to).unwrap_or("");
        if !chunk.is_empty() {
            copy(out, from, chunk);
        }
    };
    for e in es {
        if e.span.start < pos {
            continue;
        }
        run(&mut out, pos, e.span.start);
        out.push_str(&e.text);
        pos = e.span.end;
    }
    run(&mut out, pos, within.end);
    out
}

/// [`splice`] copying the untouched bytes as they are.
pub fn apply(text: &str, within: Span, edits: &[Edit]) -> String {
    splice(text, within, edits, |out, _, chunk| out.push_str(chunk))
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
