//! Finding pragmas and masking them out of the C text.
//!
//! tree-sitter-c keeps `#pragma` as a node beside the next statement and
//! mis-parses a pragma that is the body of an unbraced `if`. So the front end
//! parses a masked copy of the file in which every `omp`/`acc` pragma is
//! replaced by spaces (newlines kept): byte offsets stay the same, and the
//! statement after a pragma parses where it belongs.
//!
//! The scanner knows just enough of C's lexical rules to be right about where
//! a pragma is: comments and string/character literals are skipped (a
//! `#pragma` inside them is not one), backslash-newline continues a line, and
//! a `/* ... */` comment inside a pragma line may run over several lines
//! without ending the pragma. `_Pragma("omp ...")` is found anywhere outside
//! comments and literals; inside a `#define` body it is reported by
//! [`find_pragma_macros`] instead, since that is a definition, not a use.

use super::Model;
use super::Span;
use std::cell::Cell;

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

/// `#define NAME _Pragma("omp ...")`: an object-like macro whose body holds an
/// `omp`/`acc` pragma operator. The front end expands uses of `NAME` in the
/// same file by parsing `directive_span` in place of the use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PragmaMacro {
    pub name: String,
    /// The `_Pragma("...")` text inside the macro body (one entry per `_Pragma`).
    pub directive_span: Span,
    /// The whole `#define` logical line.
    pub define_span: Span,
    pub model: Model,
}

pub(super) fn is_ident_byte(c: u8) -> bool {
    IDENT_BYTES[c as usize]
}

/// The bytes that keep the scanner at the start of a line (indentation,
/// blank lines), as a table.
static LINE_BLANKS: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = matches!(c as u8, b' ' | b'\t' | b'\r' | b'\x0c' | b'\n');
        c += 1;
    }
    t
};

/// [`is_ident_byte`] as a table (it runs for every byte of many words).
static IDENT_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_';
        c += 1;
    }
    t
};

/// Whether `word` occurs in `text` as a whole identifier (comments and
/// strings included: callers that care blank them first).
pub fn mentions_word(text: &str, word: &str) -> bool {
    let b = text.as_bytes();
    text.match_indices(word).any(|(i, _)| {
        (i == 0 || !is_ident_byte(b[i - 1]))
            && !b.get(i + word.len()).is_some_and(|c| is_ident_byte(*c))
    })
}

/// Skips a backslash-newline at `i`, if there is one; returns the index after it.
pub(super) fn skip_splice(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'\\') {
        return None;
    }
    match (b.get(i + 1), b.get(i + 2)) {
        (Some(b'\n'), _) => Some(i + 2),
        (Some(b'\r'), Some(b'\n')) => Some(i + 3),
        _ => None,
    }
}

/// End of the block comment starting at `i` (`/*`), after the `*/`.
pub(super) fn block_comment_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 2;
    while j + 1 < b.len() {
        if b[j] == b'*' && b[j + 1] == b'/' {
            return j + 2;
        }
        j += 1;
    }
    b.len()
}

/// End of the literal starting at `start` (a quote), after its closing quote,
/// or at the end of the line when it is not closed.
pub(super) fn skip_literal(b: &[u8], start: usize) -> usize {
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

/// End of the logical line starting at `i` (backslash-newline continues it, and
/// so does a block comment that spans lines), not including the final newline.
pub(super) fn logical_line_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        if let Some(j) = skip_splice(b, i) {
            i = j;
            continue;
        }
        match b[i] {
            b'\n' => {
                // A CR before the newline belongs to the line ending, not the line.
                return if i > 0 && b[i - 1] == b'\r' { i - 1 } else { i };
            }
            b'/' if b.get(i + 1) == Some(&b'*') => i = block_comment_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => {
                // A line comment runs to the end of the logical line.
                i += 2;
                while i < b.len() && b[i] != b'\n' {
                    // Only a backslash may start a splice.
                    i = if b[i] == b'\\' {
                        skip_splice(b, i).unwrap_or(i + 1)
                    } else {
                        i + 1
                    };
                }
            }
            b'"' | b'\'' => i = skip_literal(b, i),
            _ => i += 1,
        }
    }
    b.len()
}

/// The index of the first byte of `s` from `i` on that is not a space, a
/// tab, a continuation or a `/* ... */` comment (a comment is whitespace to
/// the preprocessor, so `#pragma /* c */ omp` and `#pragma/**/acc` are
/// directives, as gcc and clang read them).
pub(super) fn skip_blanks(s: &[u8], mut i: usize) -> usize {
    while i < s.len() {
        if let Some(j) = skip_splice(s, i) {
            i = j;
        } else if s[i] == b' ' || s[i] == b'\t' {
            i += 1;
        } else if s[i] == b'/' && s.get(i + 1) == Some(&b'*') {
            i = block_comment_end(s, i);
        } else {
            break;
        }
    }
    i.min(s.len())
}

/// The first word of `s` after spaces, tabs, continuations and comments.
pub(super) fn first_word(s: &[u8]) -> &[u8] {
    let i = skip_blanks(s, 0);
    let n = s[i..].iter().take_while(|c| is_ident_byte(**c)).count();
    &s[i..i + n]
}

pub(super) fn model_of(word: &[u8]) -> Option<Model> {
    match word {
        b"omp" => Some(Model::Omp),
        b"acc" => Some(Model::Acc),
        _ => None,
    }
}

/// The words of a preprocessing directive line starting at `#`: `(word, rest)`.
pub(super) fn directive_word(line: &[u8]) -> (&[u8], &[u8]) {
    let rest = &line[1.min(line.len())..];
    let w = first_word(rest);
    let off = w.as_ptr() as usize - rest.as_ptr() as usize;
    (w, &rest[off + w.len()..])
}

/// `Some(model)` when the logical line is `# pragma omp|acc ...`.
pub(super) fn pragma_model(line: &[u8]) -> Option<Model> {
    let (w, rest) = directive_word(line);
    if w != b"pragma"
        || !rest
            .first()
            .is_some_and(|c| *c == b' ' || *c == b'\t' || *c == b'\\' || *c == b'/')
    {
        return None;
    }
    model_of(first_word(rest))
}

/// If `_Pragma ( "omp|acc ..." )` starts at `i`, its end (after `)`) and model.
pub(super) fn operator_at(b: &[u8], i: usize) -> Option<(usize, Model)> {
    if !b[i..].starts_with(b"_Pragma") || (i > 0 && is_ident_byte(b[i - 1])) {
        return None;
    }
    let skip_ws = |mut j: usize| loop {
        if let Some(k) = skip_splice(b, j) {
            j = k;
        } else if j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        } else {
            return j;
        }
    };
    let mut j = skip_ws(i + 7);
    if b.get(j) != Some(&b'(') {
        return None;
    }
    j = skip_ws(j + 1);
    for p in [&b"u8"[..], b"L", b"u", b"U"] {
        if b[j..].starts_with(p) && b.get(j + p.len()) == Some(&b'"') {
            j += p.len();
            break;
        }
    }
    if b.get(j) != Some(&b'"') {
        return None;
    }
    let lit_end = skip_literal(b, j);
    let content = &b[j + 1..lit_end.saturating_sub(1).max(j + 1)];
    let model = model_of(first_word(content))?;
    let k = skip_ws(lit_end);
    let end = if b.get(k) == Some(&b')') {
        k + 1
    } else {
        lit_end
    };
    Some((end, model))
}

/// Every `_Pragma("omp|acc ...")` in `b[start..end]`, outside comments and literals.
pub(super) fn operators_in(b: &[u8], start: usize, end: usize) -> Vec<(Span, Model)> {
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => i = block_comment_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => i = logical_line_end(b, i),
            b'"' | b'\'' => i = skip_literal(b, i),
            b'_' => {
                if let Some((e, m)) = operator_at(b, i) {
                    out.push((Span::new(i, e), m));
                    i = e;
                } else {
                    i += 1;
                }
            }
            c if is_ident_byte(c) => {
                while i < end && is_ident_byte(b[i]) {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// Walks the text, calling `on_directive` with the span of every
/// preprocessing directive line and `on_code` for every `_Pragma` outside them.
pub(super) fn scan(text: &str, on_directive: impl FnMut(Span), on_code: impl FnMut(Span, Model)) {
    scan_idents(text, on_directive, on_code, |_, _| {}, &Cell::new(false));
}

/// The bytes the scanner stops at in the middle of a line; it skips all
/// others in a tight loop (most of a file is ordinary code).
const fn stops(idents: bool) -> [bool; 256] {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = matches!(b, b'\n' | b'\\' | b'/' | b'"' | b'\'' | b'_')
            || (idents && (b.is_ascii_alphanumeric()));
        c += 1;
    }
    t
}
static STOPS: [bool; 256] = stops(false);
static STOPS_IDENTS: [bool; 256] = stops(true);

/// [`scan`], also calling `on_ident` with the span of identifiers in code
/// (outside directives, comments and literals; `_Pragma` operators excluded)
/// and whether each is the first thing on its line: every identifier while
/// `all_idents` is set (the callbacks may set it), otherwise only the first
/// of each line.
pub(super) fn scan_idents(
    text: &str,
    mut on_directive: impl FnMut(Span),
    mut on_code: impl FnMut(Span, Model),
    mut on_ident: impl FnMut(Span, bool),
    all_idents: &Cell<bool>,
) {
    let b = text.as_bytes();
    let n = b.len();
    let mut i = 0;
    let mut line_start = true;
    while i < n {
        if line_start {
            // Indentation, blank lines and continuations keep the line start.
            while i < n && LINE_BLANKS[b[i] as usize] {
                i += 1;
            }
            if let Some(j) = skip_splice(b, i) {
                i = j;
                continue;
            }
            // A comment before `#` leaves it the first token of its line:
            // `/* c */ #pragma omp ...` is a directive (gcc reads it so).
            if b[i..].starts_with(b"/*") {
                i = block_comment_end(b, i);
                continue;
            }
            if i >= n {
                break;
            }
            if b[i] == b'#' {
                let end = logical_line_end(b, i);
                on_directive(Span::new(i, end));
                i = end;
                line_start = false;
                continue;
            }
        } else {
            let stop = if all_idents.get() {
                &STOPS_IDENTS
            } else {
                &STOPS
            };
            // Eight bytes at a time while none of them stops the scan.
            while let Some(c) = b.get(i..i + 8) {
                if c.iter().fold(false, |any, &x| any | stop[x as usize]) {
                    break;
                }
                i += 8;
            }
            while i < n && !stop[b[i] as usize] {
                i += 1;
            }
            if i >= n {
                break;
            }
        }
        let c = b[i];
        let first = line_start;
        line_start = false;
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b'\\' => i = skip_splice(b, i).unwrap_or(i + 1),
            b'/' if b.get(i + 1) == Some(&b'*') => i = block_comment_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => i = logical_line_end(b, i),
            b'"' | b'\'' => i = skip_literal(b, i),
            c if is_ident_byte(c) => {
                if c == b'_' {
                    if let Some((e, m)) = operator_at(b, i) {
                        on_code(Span::new(i, e), m);
                        i = e;
                        continue;
                    }
                }
                let s = i;
                while i < n && is_ident_byte(b[i]) {
                    i += 1;
                }
                if !c.is_ascii_digit() && (first || all_idents.get()) {
                    on_ident(Span::new(s, i), first);
                }
            }
            _ => i += 1,
        }
    }
}

/// Finds every `#pragma omp` / `#pragma acc` line (with continuations) and
/// every `_Pragma("omp ...")` / `_Pragma("acc ...")` operator outside
/// preprocessing directives, in text order.
pub fn find_pragmas(text: &str) -> Vec<RawPragma> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut ops = Vec::new();
    scan(
        text,
        |span| {
            if let Some(model) = pragma_model(&b[span.start..span.end]) {
                out.push(RawPragma {
                    span,
                    form: PragmaForm::Hash,
                    model,
                });
            }
        },
        |span, model| {
            ops.push(RawPragma {
                span,
                form: PragmaForm::Operator,
                model,
            })
        },
    );
    out.extend(ops);
    out.sort_by_key(|p| p.span.start);
    out
}

/// Finds `#define NAME _Pragma("omp ...")` (object-like macros whose body holds
/// `omp`/`acc` pragma operators), one entry per `_Pragma` in the body.
pub fn find_pragma_macros(text: &str) -> Vec<PragmaMacro> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    scan(
        text,
        |span| {
            let line = &b[span.start..span.end];
            let (w, rest) = directive_word(line);
            if w != b"define" {
                return;
            }
            let name = first_word(rest);
            if name.is_empty() || name[0].is_ascii_digit() {
                return;
            }
            let name_end = name.as_ptr() as usize - b.as_ptr() as usize + name.len();
            if b.get(name_end) == Some(&b'(') {
                return; // function-like macro
            }
            let name = String::from_utf8_lossy(name).into_owned();
            for (s, model) in operators_in(b, name_end, span.end) {
                out.push(PragmaMacro {
                    name: name.clone(),
                    directive_span: s,
                    define_span: span,
                    model,
                });
            }
        },
        |_, _| {},
    );
    out
}

/// The `/*` of a block comment that the file never closes, if any (outside
/// literals and `//` comments). gcc rejects it ("unterminated comment");
/// reading on would make the rest of the file a comment, which a `*/` that
/// pragma2cuda inserts would then close, bringing dead code back.
pub fn unterminated_comment(text: &str) -> Option<Span> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = block_comment_end(b, i);
                if end == b.len() && (end < i + 4 || !b.ends_with(b"*/")) {
                    return Some(Span::new(i, i + 2));
                }
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => i = logical_line_end(b, i),
            b'"' | b'\'' => i = skip_literal(b, i),
            _ => i += 1,
        }
    }
    None
}

/// A copy of `text` with every pragma in `pragmas` replaced by spaces; newlines
/// are kept so lines and byte offsets do not move.
pub fn mask(text: &str, pragmas: &[RawPragma]) -> String {
    let spans: Vec<Span> = pragmas.iter().map(|p| p.span).collect();
    mask_spans(text, &spans)
}

/// A copy of `text` with every span replaced by spaces, newlines kept (the
/// pragmas and the uses of pragma macros, see [`super::macros`]).
pub fn mask_spans(text: &str, spans: &[Span]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for p in spans {
        let end = p.end.min(bytes.len());
        let start = p.start.min(end);
        for b in &mut bytes[start..end] {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<(&str, PragmaForm)> {
        find_pragmas(text)
            .iter()
            .map(|p| (&text[p.span.start..p.span.end], p.form))
            .collect()
    }

    #[test]
    fn hash_pragmas_with_continuations_and_comments() {
        let t = "int a;\n  #  pragma  omp parallel \\\n for\nx;\n#pragma acc loop /* two\nlines */ gang\ny;\n#pragma once\n";
        assert_eq!(
            spans(t),
            [
                ("#  pragma  omp parallel \\\n for", PragmaForm::Hash),
                ("#pragma acc loop /* two\nlines */ gang", PragmaForm::Hash)
            ]
        );
    }

    #[test]
    fn comments_in_the_pragma_prefix() {
        // gcc reads every one of these as an OpenMP/OpenACC directive.
        let t = "/* c */ #pragma acc parallel loop\nx;\n#pragma /* c */ omp target\ny;\n#pragma /**/acc kernels\nz;\n# \t pragma \\\n /* x */ omp /* y */ parallel // z\nw;\n/* a\n b */ #pragma omp barrier\n#/**/pragma omp flush\n";
        assert_eq!(
            spans(t).iter().map(|s| s.0).collect::<Vec<_>>(),
            [
                "#pragma acc parallel loop",
                "#pragma /* c */ omp target",
                "#pragma /**/acc kernels",
                "# \t pragma \\\n /* x */ omp /* y */ parallel // z",
                "#pragma omp barrier",
                "#/**/pragma omp flush",
            ]
        );
        // Still not directives: a `#` after code, a comment that hides the
        // pragma, a pragma of another namespace.
        let t = "x; #pragma omp parallel\n/* #pragma omp parallel */\n#pragma /* omp */ GCC ivdep\n#pragmaomp parallel\n";
        assert!(find_pragmas(t).is_empty());
    }

    #[test]
    fn unterminated_comments() {
        for (t, at) in [
            ("int a; /* b;\nint c;\n", Some(7)),
            ("/*/", Some(0)),
            ("/**/ x /* y */ /*", Some(15)),
            ("char *s = \"/*\"; // /*\n'/'; /* */", None),
            ("/* a */", None),
            ("/**/", None),
            ("x /* a * / b", Some(2)),
        ] {
            assert_eq!(unterminated_comment(t).map(|s| s.start), at, "{t}");
        }
    }

    #[test]
    fn skips_comments_and_strings() {
        let t = "/*\n#pragma omp parallel\n*/\nchar *s = \"#pragma omp for _Pragma(\\\"omp for\\\")\";\n// _Pragma(\"omp for\")\n";
        assert!(find_pragmas(t).is_empty());
    }

    #[test]
    fn operator_form() {
        let t = "void f(){ _Pragma(\"omp parallel for\") for(;;); my_Pragma(\"omp x\"); _Pragma(\"GCC ivdep\") }";
        assert_eq!(
            spans(t),
            [("_Pragma(\"omp parallel for\")", PragmaForm::Operator)]
        );
        assert_eq!(find_pragmas(t)[0].model, Model::Omp);
    }

    #[test]
    fn macros() {
        let t = "#define PF _Pragma(\"omp parallel for\")\n#define F(x) _Pragma(\"omp for\")\n#define N 3\n#  define  AL \\\n  _Pragma(\"acc loop\") _Pragma(\"acc wait\")\nPF\n";
        let m = find_pragma_macros(t);
        assert_eq!(m.len(), 3);
        assert_eq!(m[0].name, "PF");
        assert_eq!(
            &t[m[0].directive_span.start..m[0].directive_span.end],
            "_Pragma(\"omp parallel for\")"
        );
        assert_eq!(
            &t[m[0].define_span.start..m[0].define_span.end],
            "#define PF _Pragma(\"omp parallel for\")"
        );
        assert_eq!(m[1].name, "AL");
        assert_eq!(m[1].model, Model::Acc);
        assert_eq!(
            &t[m[2].directive_span.start..m[2].directive_span.end],
            "_Pragma(\"acc wait\")"
        );
        // The definitions are not pragma uses.
        assert!(find_pragmas(t).is_empty());
    }

    #[test]
    fn mask_keeps_offsets() {
        let t = "a;\n#pragma omp parallel \\\nfor\nb; _Pragma(\"omp barrier\") c;";
        let m = mask(t, &find_pragmas(t));
        assert_eq!(m.len(), t.len());
        assert_eq!(
            m,
            format!(
                "a;\n{}\n{}\nb; {} c;",
                " ".repeat(22),
                "   ",
                " ".repeat(22)
            )
        );
    }

    #[test]
    fn crlf_and_odd_input() {
        let t = "#pragma omp barrier\r\nx;\r\n";
        assert_eq!(spans(t), [("#pragma omp barrier", PragmaForm::Hash)]);
        for t in [
            "#",
            "_Pragma",
            "_Pragma(",
            "_Pragma(\"",
            "\"",
            "/*",
            "#pragma omp \\",
            "\\",
            "_Pragma(\"omp",
        ] {
            let _ = find_pragmas(t);
            let _ = find_pragma_macros(t);
        }
    }
}
