//! Tokens of one pragma, with absolute byte offsets into the file.
//!
//! The lexer first builds the pragma's *logical* text (continuations spliced
//! out, and for `_Pragma("...")` the string literal destringized), keeping for
//! every logical byte the span of the source bytes it came from. Tokens are
//! then read from the logical text, so each token's span points at the bytes
//! the user wrote, even across a backslash-newline or an escaped quote.
//! Comments become whitespace; whitespace only survives as the
//! `space_before` flag, which is how expression text is normalised.

use crate::diag::{codes, Diagnostic};
use crate::source::Span;
use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Number,
    /// String or character literal.
    Literal,
    Punct,
    /// Any other character (non-ASCII, `@`, `$`, `` ` ``).
    Other,
}

/// A token's text: a slice of the source when the token was written in one
/// piece (no continuation or escape inside it), the usual case, so lexing
/// allocates nothing per token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TokText<'s>(Cow<'s, str>);

impl TokText<'_> {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for TokText<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for TokText<'_> {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for TokText<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl fmt::Display for TokText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token<'s> {
    pub kind: Kind,
    pub text: TokText<'s>,
    pub span: Span,
    /// Whitespace or a comment came before this token.
    pub space_before: bool,
}

impl Token<'_> {
    pub fn is(&self, text: &str) -> bool {
        self.text == text
    }
    pub fn is_ident(&self) -> bool {
        self.kind == Kind::Ident
    }
}

/// How the pragma was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// `#pragma ...`; the tokens start with `#`.
    Hash,
    /// `_Pragma("...")`; the tokens are those of the string's contents.
    Operator,
    /// Bare text such as `omp parallel` (as `print` produces).
    Bare,
}

pub(crate) struct Lexed<'s> {
    pub form: Form,
    pub tokens: Vec<Token<'s>>,
    pub diags: Vec<Diagnostic>,
}

/// One logical byte and the source bytes it stands for.
#[derive(Clone, Copy)]
struct LByte {
    b: u8,
    start: usize,
    end: usize,
}

/// Lexes `src[span]`. Never panics: the span is clamped to the text.
pub(crate) fn lex(src: &str, span: Span) -> Lexed<'_> {
    let bytes = src.as_bytes();
    let end = span.end.min(bytes.len());
    let start = span.start.min(end);
    let spliced = splice(bytes, start, end);
    let mut diags = Vec::new();
    // Skip leading whitespace to see which form this is.
    let first = spliced
        .iter()
        .position(|l| !matches!(l.b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | b'\x0b'));
    let Some(first) = first else {
        return Lexed {
            form: Form::Bare,
            tokens: Vec::new(),
            diags,
        };
    };
    let is_operator = spliced[first..]
        .iter()
        .take(7)
        .map(|l| l.b)
        .eq(b"_Pragma".iter().copied());
    if is_operator {
        let (logical, mut d) = destringize(&spliced, first + 7, end);
        diags.append(&mut d);
        let tokens = tokenize(src, &logical, &mut diags);
        return Lexed {
            form: Form::Operator,
            tokens,
            diags,
        };
    }
    let form = if spliced[first].b == b'#' {
        Form::Hash
    } else {
        Form::Bare
    };
    let tokens = tokenize(src, &spliced[first..], &mut diags);
    Lexed {
        form,
        tokens,
        diags,
    }
}

/// The bytes of `b[start..end]` with backslash-newline (and backslash-CR-LF) removed.
fn splice(b: &[u8], start: usize, end: usize) -> Vec<LByte> {
    let mut out = Vec::with_capacity(end - start);
    let mut i = start;
    while i < end {
        if b[i] == b'\\' {
            if i + 1 < end && b[i + 1] == b'\n' {
                i += 2;
                continue;
            }
            if i + 2 < end && b[i + 1] == b'\r' && b[i + 2] == b'\n' {
                i += 3;
                continue;
            }
        }
        out.push(LByte {
            b: b[i],
            start: i,
            end: i + 1,
        });
        i += 1;
    }
    out
}

/// Reads `( "..." )` after `_Pragma` starting at logical index `i`, returning
/// the destringized contents (`\"` -> `"`, `\\` -> `\`), each byte keeping the
/// span of its escape sequence.
fn destringize(l: &[LByte], mut i: usize, end: usize) -> (Vec<LByte>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let here = |i: usize| -> Span {
        l.get(i)
            .map(|x| Span::new(x.start, x.end))
            .unwrap_or_else(|| Span::new(end, end))
    };
    let skip_ws = |mut i: usize| {
        while i < l.len() && matches!(l[i].b, b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
        }
        i
    };
    i = skip_ws(i);
    if l.get(i).map(|x| x.b) != Some(b'(') {
        diags.push(
            Diagnostic::new(
                codes::PRAGMA_SYNTAX,
                here(i),
                "expected `(` after `_Pragma`",
            )
            .with_label("expected `(`"),
        );
        return (Vec::new(), diags);
    }
    i = skip_ws(i + 1);
    // Encoding prefixes are allowed on the literal.
    for p in [&b"u8"[..], b"L", b"u", b"U"] {
        let m = l
            .get(i..i + p.len())
            .map(|s| s.iter().map(|x| x.b).eq(p.iter().copied()))
            .unwrap_or(false);
        if m && l.get(i + p.len()).map(|x| x.b) == Some(b'"') {
            i += p.len();
            break;
        }
    }
    if l.get(i).map(|x| x.b) != Some(b'"') {
        diags.push(
            Diagnostic::new(
                codes::PRAGMA_SYNTAX,
                here(i),
                "expected a string literal in `_Pragma(...)`",
            )
            .with_label("expected a string literal"),
        );
        return (Vec::new(), diags);
    }
    let open = i;
    i += 1;
    let mut out = Vec::new();
    let mut closed = false;
    while i < l.len() {
        let c = l[i];
        if c.b == b'"' {
            closed = true;
            i += 1;
            break;
        }
        if c.b == b'\n' {
            break;
        }
        if c.b == b'\\' {
            if let Some(n) = l.get(i + 1) {
                if n.b == b'"' || n.b == b'\\' {
                    out.push(LByte {
                        b: n.b,
                        start: c.start,
                        end: n.end,
                    });
                    i += 2;
                    continue;
                }
                // Any other escape stays as written (two bytes).
                out.push(c);
                out.push(*n);
                i += 2;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    if !closed {
        diags.push(
            Diagnostic::new(
                codes::PRAGMA_SYNTAX,
                here(open),
                "unterminated string literal in `_Pragma`",
            )
            .with_label("this string is not closed"),
        );
        return (out, diags);
    }
    i = skip_ws(i);
    if l.get(i).map(|x| x.b) != Some(b')') {
        diags.push(
            Diagnostic::new(
                codes::PRAGMA_SYNTAX,
                here(i),
                "expected `)` to close `_Pragma(`",
            )
            .with_label("expected `)`"),
        );
    }
    (out, diags)
}

const PUNCT3: &[&str] = &["<<=", ">>=", "..."];
const PUNCT2: &[&str] = &[
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=",
    "&=", "^=", "|=", "##",
];

fn tokenize<'s>(src: &'s str, l: &[LByte], diags: &mut Vec<Diagnostic>) -> Vec<Token<'s>> {
    let mut toks = Vec::with_capacity(l.len() / 3 + 1);
    let mut i = 0;
    let mut space = false;
    let at = |i: usize| l.get(i).map(|x| x.b).unwrap_or(0);
    while i < l.len() {
        let c = l[i].b;
        match c {
            b'\n' => break,
            b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b' => {
                space = true;
                i += 1;
                continue;
            }
            b'/' if at(i + 1) == b'*' => {
                let open = Span::new(l[i].start, l[i + 1].end);
                let mut j = i + 2;
                while j < l.len() && !(l[j].b == b'*' && at(j + 1) == b'/') {
                    j += 1;
                }
                if j >= l.len() {
                    diags.push(
                        Diagnostic::new(
                            codes::PRAGMA_SYNTAX,
                            open,
                            "unterminated comment in pragma",
                        )
                        .with_label("this comment is not closed"),
                    );
                    break;
                }
                i = j + 2;
                space = true;
                continue;
            }
            b'/' if at(i + 1) == b'/' => break,
            _ => {}
        }
        let s = i;
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            while i < l.len() && (l[i].b.is_ascii_alphanumeric() || l[i].b == b'_') {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() || (c == b'.' && at(i + 1).is_ascii_digit()) {
            i += 1;
            while i < l.len() {
                let d = l[i].b;
                let exponent_sign =
                    matches!(d, b'+' | b'-') && matches!(l[i - 1].b, b'e' | b'E' | b'p' | b'P');
                let digit_sep = d == b'\'' && at(i + 1).is_ascii_alphanumeric();
                if exponent_sign || digit_sep || d.is_ascii_alphanumeric() || d == b'_' || d == b'.'
                {
                    i += 1;
                } else {
                    break;
                }
            }
            Kind::Number
        } else if c == b'"' || c == b'\'' {
            i += 1;
            let mut closed = false;
            while i < l.len() {
                match l[i].b {
                    b'\\' => i += 2,
                    b'\n' => break,
                    x if x == c => {
                        i += 1;
                        closed = true;
                        break;
                    }
                    _ => i += 1,
                }
            }
            i = i.min(l.len());
            if !closed {
                diags.push(
                    Diagnostic::new(
                        codes::PRAGMA_SYNTAX,
                        Span::new(l[s].start, l[i - 1].end),
                        "unterminated literal in pragma",
                    )
                    .with_label("this literal is not closed"),
                );
            }
            Kind::Literal
        } else if c.is_ascii_punctuation() {
            // Up to three bytes, on the stack (this runs for every operator).
            let mut buf = [0u8; 3];
            let m = (l.len() - i).min(3);
            for (k, x) in l[i..i + m].iter().enumerate() {
                buf[k] = x.b;
            }
            let text3 = &buf[..m];
            let n = if PUNCT3
                .iter()
                .any(|p| text3.starts_with(p.as_bytes()) && text3.len() >= 3)
            {
                3
            } else if PUNCT2.iter().any(|p| text3.starts_with(p.as_bytes())) {
                2
            } else {
                1
            };
            i += n;
            Kind::Punct
        } else {
            // One UTF-8 character (or one stray byte).
            i += 1;
            while i < l.len() && (l[i].b & 0xC0) == 0x80 {
                i += 1;
            }
            Kind::Other
        };
        // The source bytes themselves when they are the token's bytes (no
        // splice or escape inside the token).
        let (first, last) = (l[s].start, l[i - 1].end);
        let text = match src.get(first..last) {
            Some(t) if last - first == i - s => Cow::Borrowed(t),
            _ => {
                let bytes: Vec<u8> = l[s..i].iter().map(|x| x.b).collect();
                Cow::Owned(
                    String::from_utf8(bytes)
                        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
                )
            }
        };
        toks.push(Token {
            kind,
            text: TokText(text),
            span: Span::new(l[s].start, l[i - 1].end),
            space_before: space,
        });
        space = false;
    }
    toks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<String> {
        lex(src, Span::new(0, src.len()))
            .tokens
            .into_iter()
            .map(|t| t.text.to_string())
            .collect()
    }

    #[test]
    fn splices_and_comments() {
        assert_eq!(
            texts("#pragma omp par\\\nallel /* c */ for // x"),
            ["#", "pragma", "omp", "parallel", "for"]
        );
        let src = "#pragma omp par\\\nallel";
        let l = lex(src, Span::new(0, src.len()));
        let t = &l.tokens[3];
        assert_eq!(t.span, Span::new(12, src.len()));
        assert_eq!(&src[t.span.start..t.span.end], "par\\\nallel");
    }

    #[test]
    fn operator_form_maps_offsets() {
        let src = r#"x; _Pragma("omp critical(\"a\")") y"#;
        let s = src.find("_Pragma").unwrap();
        let e = src.find(" y").unwrap();
        let l = lex(src, Span::new(s, e));
        assert_eq!(l.form, Form::Operator);
        assert!(l.diags.is_empty());
        let lit = l.tokens.iter().find(|t| t.kind == Kind::Literal).unwrap();
        assert_eq!(lit.text, "\"a\"");
        assert_eq!(&src[lit.span.start..lit.span.end], "\\\"a\\\"");
    }

    #[test]
    fn punctuation_longest_match() {
        assert_eq!(
            texts("a->b[1:-2] && c||d <<= 1"),
            ["a", "->", "b", "[", "1", ":", "-", "2", "]", "&&", "c", "||", "d", "<<=", "1"]
        );
        assert_eq!(texts("1.5e-3 0x1fU"), ["1.5e-3", "0x1fU"]);
    }

    #[test]
    fn stops_at_newline_and_reports_unterminated() {
        assert_eq!(
            texts("#pragma omp for\nint x;"),
            ["#", "pragma", "omp", "for"]
        );
        let src = "#pragma omp critical /* open";
        assert_eq!(lex(src, Span::new(0, src.len())).diags.len(), 1);
        let src = "_Pragma(\"omp for";
        assert_eq!(lex(src, Span::new(0, src.len())).diags.len(), 1);
    }

    #[test]
    fn odd_spans_do_not_panic() {
        let src = "é#pragma omp";
        let _ = lex(src, Span::new(1, 100));
        let _ = lex(src, Span::new(50, 10));
        let _ = lex("\\", Span::new(0, 1));
        let _ = lex("_Pragma(\"\\", Span::new(0, 10));
    }
}
