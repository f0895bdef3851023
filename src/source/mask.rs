//! Finding pragmas and masking them out of the C text.
//!
//! tree-sitter-c keeps `#pragma` as a node beside the next statement and
//! mis-parses a pragma that is the body of an unbraced `if`. So the front end
//! parses a masked copy of the file in which every `omp`/`acc` pragma is
//! replaced by spaces (newlines kept): byte offsets stay the same, and the
//! statement after a pragma parses where it belongs.

use super::Span;
use crate::directives::Model;

/// How a pragma was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PragmaForm {
    /// `#pragma omp ...`, possibly continued with backslash-newline.
    Hash,
    /// `_Pragma("omp ...")`.
    Operator,
}

/// An `omp` or `acc` pragma found in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawPragma {
    pub span: Span,
    pub form: PragmaForm,
    pub model: Model,
}

/// Finds every `#pragma omp` / `#pragma acc` line (with continuations).
pub fn find_pragmas(text: &str) -> Vec<RawPragma> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if line_start && (c == b' ' || c == b'\t') {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            let start = i;
            let end = logical_line_end(b, i);
            let line = &text[start..end];
            if let Some(model) = pragma_model(line) {
                out.push(RawPragma { span: Span::new(start, end), form: PragmaForm::Hash, model });
            }
            i = end;
            line_start = false;
            continue;
        }
        line_start = false;
        // Skip comments and literals so a '#' inside them is not taken.
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..].find("*/").map(|p| i + 2 + p + 2).unwrap_or(b.len());
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = logical_line_end(b, i);
            continue;
        }
        if c == b'"' || c == b'\'' {
            i = skip_literal(b, i);
            continue;
        }
        i += 1;
    }
    out
}

/// End of the logical line starting at `i` (backslash-newline continues it),
/// not including the final newline.
fn logical_line_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        if b[i] == b'\n' {
            let mut j = i;
            if j > 0 && b[j - 1] == b'\r' {
                j -= 1;
            }
            if j > 0 && b[j - 1] == b'\\' {
                i += 1;
                continue;
            }
            return i;
        }
        i += 1;
    }
    b.len()
}

fn skip_literal(b: &[u8], start: usize) -> usize {
    let q = b[start];
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            x if x == q => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// `Some(model)` when the logical line is `# pragma omp|acc ...`.
fn pragma_model(line: &str) -> Option<Model> {
    let rest = line.strip_prefix('#')?.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix("pragma")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start_matches([' ', '\t', '\\', '\n', '\r']);
    let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    match word.as_str() {
        "omp" => Some(Model::Omp),
        "acc" => Some(Model::Acc),
        _ => None,
    }
}

/// A copy of `text` with every pragma in `pragmas` replaced by spaces; newlines
/// are kept so lines and byte offsets do not move.
pub fn mask(text: &str, pragmas: &[RawPragma]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for p in pragmas {
        for b in &mut bytes[p.span.start..p.span.end.min(text.len())] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    // Only ASCII bytes of pragma text were replaced by ASCII spaces, but a pragma
    // may contain UTF-8 in a comment: replace whole characters to stay valid.
    String::from_utf8(bytes).unwrap_or_else(|e| {
        let mut s = String::from_utf8_lossy(e.as_bytes()).into_owned();
        s.truncate(text.len());
        s
    })
}
