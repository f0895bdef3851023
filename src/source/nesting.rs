//! The nesting limits, checked on the text before anything parses it: the
//! translator's walks over the C tree and the directive parser recurse, so
//! a file of 50,000 nested braces would exhaust the stack. Like clang's
//! `-fbracket-depth` (default 256), brackets `{ ( [` may nest at most
//! [`MAX_BRACKET_DEPTH`] deep, and `#if` / `#ifdef` / `#ifndef` groups at
//! most [`MAX_COND_DEPTH`]; deeper nesting is one located E0005. The C
//! code is scanned as one text (comments, string and character literals
//! skipped); each preprocessor line (pragmas included) counts its own
//! brackets, so a malformed directive cannot shift the count of the code.
//! Deep trees without brackets (`else if` chains) are `front::depth`'s.

use super::Span;
use crate::diag::{codes, Diagnostic};

/// The deepest bracket nesting accepted (clang's default bracket depth).
pub const MAX_BRACKET_DEPTH: usize = 256;
/// The deepest `#if` group nesting accepted.
pub const MAX_COND_DEPTH: usize = 256;

/// The first place where `text` nests deeper than the limits, as E0005.
pub fn check(text: &str) -> Option<Diagnostic> {
    let b = text.as_bytes();
    let (mut i, mut depth, mut cond) = (0, 0usize, 0usize);
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if line_start && c == b'#' {
            let end = directive_end(b, i);
            cond = cond_depth(&text[i..end], cond);
            if cond > MAX_COND_DEPTH {
                return Some(too_deep(i, end, "`#if` groups", MAX_COND_DEPTH));
            }
            if let Some(at) = brackets(b, i, end, &mut 0) {
                return Some(too_deep(at, at + 1, "brackets", MAX_BRACKET_DEPTH));
            }
            i = end;
            continue;
        }
        if c == b'\n' {
            line_start = true;
        } else if !c.is_ascii_whitespace() {
            line_start = false;
        }
        match c {
            b'/' | b'"' | b'\'' => {
                let next = skip_literal_or_comment(b, i);
                if next > i {
                    // A block comment may end a line: keep the line state.
                    i = next;
                    continue;
                }
            }
            _ => {}
        }
        if brackets(b, i, i + 1, &mut depth).is_some() {
            return Some(too_deep(i, i + 1, "brackets", MAX_BRACKET_DEPTH));
        }
        i += 1;
    }
    None
}

fn too_deep(start: usize, end: usize, what: &str, max: usize) -> Diagnostic {
    Diagnostic::new(
        codes::NESTING_TOO_DEEP,
        Span::new(start, end),
        format!("{what} nest more than {max} deep"),
    )
    .with_label(format!("nesting level {} starts here", max + 1))
    .with_note("pragma2cuda refuses deeper nesting rather than exhaust its stack (clang's default -fbracket-depth is 256 too)")
    .with_help("split the expression or the block, e.g. with helper functions or temporary variables")
}

/// Counts the brackets of `b[from..to]` into `depth`, skipping comments and
/// literals; the offset of the first one beyond the limit.
fn brackets(b: &[u8], from: usize, to: usize, depth: &mut usize) -> Option<usize> {
    let mut i = from;
    while i < to {
        match b[i] {
            b'/' | b'"' | b'\'' if skip_literal_or_comment(b, i) > i => {
                i = skip_literal_or_comment(b, i).min(to.max(i + 1));
                continue;
            }
            b'{' | b'(' | b'[' => {
                *depth += 1;
                if *depth > MAX_BRACKET_DEPTH {
                    return Some(i);
                }
            }
            b'}' | b')' | b']' => *depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The end of the comment or literal starting at `i`, or `i` when none does.
fn skip_literal_or_comment(b: &[u8], i: usize) -> usize {
    match (b[i], b.get(i + 1)) {
        (b'/', Some(b'/')) => {
            let mut j = i + 2;
            while j < b.len() && !(b[j] == b'\n' && b[j - 1] != b'\\') {
                j += 1;
            }
            j
        }
        (b'/', Some(b'*')) => match find(b, i + 2, b"*/") {
            Some(j) => j + 2,
            None => b.len(),
        },
        (q @ (b'"' | b'\''), _) => {
            let mut j = i + 1;
            while j < b.len() && b[j] != q && b[j] != b'\n' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(b.len())
        }
        _ => i,
    }
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(pat.len())
        .position(|w| w == pat)
        .map(|p| p + from)
}

/// The end of the preprocessor line starting at `i` (continuations and
/// block comments included), at its newline.
fn directive_end(b: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < b.len() && b[j] != b'\n' {
        if b[j] == b'\\' && b.get(j + 1) == Some(&b'\n') {
            j += 2;
            continue;
        }
        if b[j] == b'/' && b.get(j + 1) == Some(&b'*') {
            j = skip_literal_or_comment(b, j);
            continue;
        }
        j += 1;
    }
    j
}

/// The `#if` depth after the directive `line`.
fn cond_depth(line: &str, depth: usize) -> usize {
    let name = line[1..]
        .trim_start_matches([' ', '\t'])
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .unwrap_or("");
    match name {
        "if" | "ifdef" | "ifndef" => depth + 1,
        "endif" => depth.saturating_sub(1),
        _ => depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(open: &str, close: &str, n: usize) -> String {
        format!("int x = {}1{};\n", open.repeat(n), close.repeat(n))
    }

    #[test]
    fn limits() {
        assert!(check(&nested("(", ")", 256)).is_none());
        let d = check(&nested("(", ")", 257)).unwrap();
        assert_eq!(d.code, codes::NESTING_TOO_DEEP);
        assert_eq!(d.primary_span(), Span::new(8 + 256, 8 + 257));
        let ifs = format!(
            "{}int x;\n{}",
            "#if 1\n".repeat(257),
            "#endif\n".repeat(257)
        );
        assert!(check(&ifs).unwrap().message.contains("`#if` groups"));
        let ok = format!("{}int x;\n{}", "#if 1\n#endif\n".repeat(1000), "");
        assert!(check(&ok).is_none());
    }

    #[test]
    fn comments_literals_and_directive_lines_do_not_count() {
        let s = format!(
            "/* {} */ // {}\nchar *s = \"{}\"; char c = '(';\n#define P {}\nint y = (1);\n",
            "(".repeat(300),
            "{".repeat(300),
            "[".repeat(300),
            "(".repeat(200)
        );
        assert!(check(&s).is_none(), "{:?}", check(&s));
        let pragma = format!(
            "#pragma omp target if({}1{})\n",
            "(".repeat(300),
            ")".repeat(300)
        );
        assert!(check(&pragma).is_some());
    }
}
