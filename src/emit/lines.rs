//! `#line` directives: nvcc, clang and cuda-gdb name the user's file and
//! line for every line of the output that was copied from it (host code and
//! kernel bodies alike), and the output file's own line for generated code.
//!
//! While the file is assembled, each run of bytes copied from the input is
//! written between markers (`edits::apply_with`): `\u{1}OFFSET\u{2}` before
//! it (the input offset it starts at) and `\u{1}\u{2}` after it (generated
//! text follows). The markers ride along with the text through the
//! emitter's string handling; [`resolve`] turns them into directives once
//! the whole file is written, or [`strip`] drops them.
//!
//! Generated lines get `#line N "OUT"`, their real place in the output, as
//! bison and flex do for their own code: a generated block of twenty lines
//! has no user line, and numbering it on from the pragma's line would name
//! user lines it does not come from.

use crate::source::literal::c_string;
use crate::source::SourceFile;
use std::fmt::Write;

const OPEN: char = '\u{1}';
const CLOSE: char = '\u{2}';

/// Whether the markers can be used for `text`: it holds neither marker
/// character (else the output gets no directives).
pub fn usable(text: &str) -> bool {
    !text.contains([OPEN, CLOSE])
}

/// Appends `chunk`, copied from input offset `from`, between markers.
pub fn mark_copied(out: &mut String, from: usize, chunk: &str) {
    let _ = write!(out, "{OPEN}{from}{CLOSE}{chunk}{OPEN}{CLOSE}");
}

/// `s` without its markers.
pub fn strip(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b = s.as_bytes();
    let mut inside = false;
    let mut at = 0;
    // The markers are ASCII: whole runs between them are copied.
    while let Some(k) = b[at..]
        .iter()
        .position(|&c| c == OPEN as u8 || c == CLOSE as u8)
    {
        if !inside {
            out.push_str(&s[at..at + k]);
        }
        inside = b[at + k] == OPEN as u8;
        at += k + 1;
    }
    if !inside {
        out.push_str(&s[at..]);
    }
    out
}

/// Where the compiler takes the next output line to come from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Presumed<'a> {
    /// The output file itself, line for line.
    Out,
    User(&'a str, usize),
    /// Not known: after a user's `#line`, or after an arm of an `#if`
    /// group in which a directive was written (a directive in an arm that
    /// is not compiled is not read).
    Unknown,
}

/// One output line with its markers read.
struct Line {
    text: String,
    /// Where its first non-blank byte comes from: `Some(Some(line))` a line
    /// of the input, `Some(None)` generated; `None` for a blank line.
    first: Option<Option<usize>>,
}

/// The marked text `marked` with its markers replaced by `#line`
/// directives for `file`; `out_name` names the output for generated lines.
pub fn resolve(marked: &str, file: &SourceFile, out_name: &str) -> String {
    let mut out = String::with_capacity(marked.len() + marked.len() / 16);
    let mut src: Option<usize> = None;
    let mut presumed = Presumed::Out;
    let mut written = 0usize;
    let mut lex = Lex::default();
    // Per open `#if` group: a directive was written in its current arm.
    let mut written_in: Vec<bool> = Vec::new();
    for raw in marked.split_inclusive('\n') {
        let line = read_line(raw, file, &mut src);
        if line.text.is_empty() {
            continue;
        }
        if let (Some(first), false) = (line.first, lex.in_comment || lex.continued) {
            let want = match first {
                Some(l) => {
                    let (name, l) = file.origin_of_line(l);
                    Presumed::User(name, l)
                }
                None => Presumed::Out,
            };
            if want != presumed {
                let (n, name) = match want {
                    Presumed::User(name, l) => (l, name),
                    _ => (written + 2, out_name),
                };
                let _ = writeln!(out, "#line {n} \"{}\"", c_string(name));
                written += 1;
                presumed = want;
                written_in.iter_mut().for_each(|w| *w = true);
            }
        }
        let kind = if lex.in_comment {
            Kind::Other
        } else {
            kind(&line.text)
        };
        out.push_str(&line.text);
        written += 1;
        presumed = match presumed {
            Presumed::User(name, l) => Presumed::User(name, l + 1),
            p => p,
        };
        let unsure = match kind {
            Kind::Marker => true,
            Kind::Open => {
                written_in.push(false);
                false
            }
            Kind::Arm => written_in.last_mut().is_some_and(std::mem::take),
            Kind::Close => written_in.pop().unwrap_or(false),
            Kind::Other => false,
        };
        if unsure {
            presumed = Presumed::Unknown;
        }
        lex.read(&line.text);
    }
    out
}

/// The line `raw` without markers; `src` (the input line of the next
/// copied byte, `None` while generated text runs) follows them.
fn read_line(raw: &str, file: &SourceFile, src: &mut Option<usize>) -> Line {
    let mut text = String::with_capacity(raw.len());
    let mut first = None;
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // A run of text up to the next marker or newline (ASCII bytes).
        let end = b[i..]
            .iter()
            .position(|&c| c == OPEN as u8 || c == b'\n')
            .map_or(b.len(), |k| i + k);
        if end > i {
            let run = &raw[i..end];
            if first.is_none() && run.chars().any(|c| !c.is_whitespace()) {
                first = Some(*src);
            }
            text.push_str(run);
            i = end;
        } else if b[i] == b'\n' {
            text.push('\n');
            *src = src.map(|l| l + 1);
            i += 1;
        } else {
            // OPEN, the input offset, CLOSE.
            let rest = &raw[i + 1..];
            let end = rest.find(CLOSE).unwrap_or(rest.len());
            *src = rest[..end].parse::<usize>().ok().map(|o| file.line_of(o));
            i = (i + 1 + end + CLOSE.len_utf8()).min(b.len());
        }
    }
    Line { text, first }
}

/// The preprocessor lines that matter to the numbering.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// `#line` or a line marker (`# 12 "f.c"`).
    Marker,
    /// `#if`, `#ifdef`, `#ifndef`.
    Open,
    /// `#elif...`, `#else`.
    Arm,
    Close,
    Other,
}

fn kind(line: &str) -> Kind {
    let Some(rest) = line.trim_start().strip_prefix('#') else {
        return Kind::Other;
    };
    let rest = rest.trim_start();
    if rest.starts_with(|c: char| c.is_ascii_digit()) {
        return Kind::Marker;
    }
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    match word.as_str() {
        "line" => Kind::Marker,
        "if" | "ifdef" | "ifndef" => Kind::Open,
        "elif" | "elifdef" | "elifndef" | "else" => Kind::Arm,
        "endif" => Kind::Close,
        _ => Kind::Other,
    }
}

/// Enough of C's lexing to know where a directive may go: not inside a
/// block comment, not after a line that a backslash continues.
#[derive(Default)]
struct Lex {
    in_comment: bool,
    continued: bool,
}

impl Lex {
    fn read(&mut self, line: &str) {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if self.in_comment {
                if b[i..].starts_with(b"*/") {
                    self.in_comment = false;
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            match b[i] {
                b'/' if b.get(i + 1) == Some(&b'/') => break,
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    self.in_comment = true;
                    i += 2;
                }
                q @ (b'"' | b'\'') => i = skip_quoted(b, i, q),
                _ => i += 1,
            }
        }
        self.continued = line.trim_end_matches(['\n', '\r']).ends_with('\\');
    }
}

/// The index after the literal that starts with quote `q` at `i`.
fn skip_quoted(b: &[u8], i: usize, q: u8) -> usize {
    let mut j = i + 1;
    while j < b.len() && b[j] != q && b[j] != b'\n' {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    j + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(file: &SourceFile, parts: &[(Option<usize>, &str)]) -> String {
        let mut s = String::new();
        for (from, t) in parts {
            match from {
                Some(o) => mark_copied(&mut s, *o, t),
                None => s.push_str(t),
            }
        }
        let _ = file;
        s
    }

    #[test]
    fn copied_lines_name_the_input_and_generated_lines_the_output() {
        let text = "int a;\nint b;\nint c;\n";
        let f = SourceFile::new("in.c", text);
        let m = marked(
            &f,
            &[
                (None, "/* head */\n"),
                (Some(0), "int a;\n"),
                (None, "gen1;\ngen2;\n"),
                (Some(14), "int c;\n"),
            ],
        );
        assert_eq!(
            resolve(&m, &f, "out.cu"),
            "/* head */\n#line 1 \"in.c\"\nint a;\n#line 5 \"out.cu\"\ngen1;\ngen2;\n\
             #line 3 \"in.c\"\nint c;\n"
        );
        assert_eq!(strip(&m), "/* head */\nint a;\ngen1;\ngen2;\nint c;\n");
    }

    #[test]
    fn a_line_is_attributed_by_its_first_byte() {
        let text = "for (;;) {\n  x = 1;\n}\n";
        let f = SourceFile::new("in.c", text);
        // Generated indentation, then the body copied from mid-line.
        let m = marked(
            &f,
            &[(None, "k() {\n    "), (Some(9), &text[9..]), (None, "}\n")],
        );
        assert_eq!(
            resolve(&m, &f, "o.cu"),
            "k() {\n#line 1 \"in.c\"\n    {\n  x = 1;\n}\n#line 7 \"o.cu\"\n}\n"
        );
    }

    #[test]
    fn no_directive_inside_a_comment_or_a_continued_line() {
        let text = "#define M(x) \\\n  (x)\n/* a\n b */ int y;\n";
        let f = SourceFile::new("in.c", text);
        let m = marked(&f, &[(Some(0), "#define M(x) \\\n"), (None, "  (x)\n")]);
        assert_eq!(
            resolve(&m, &f, "o.cu"),
            "#line 1 \"in.c\"\n#define M(x) \\\n  (x)\n"
        );
        let m = marked(&f, &[(Some(21), "/* a\n"), (None, " b */ int y;\nz;\n")]);
        assert_eq!(
            resolve(&m, &f, "o.cu"),
            "#line 3 \"in.c\"\n/* a\n b */ int y;\n#line 5 \"o.cu\"\nz;\n"
        );
    }

    #[test]
    fn after_an_arm_with_a_directive_the_next_line_is_placed_again() {
        let text = "#if A\nint a;\n#endif\nint b;\n";
        let f = SourceFile::new("in.c", text);
        let m = marked(&f, &[(Some(0), text)]);
        assert_eq!(
            resolve(&m, &f, "o.cu"),
            "#line 1 \"in.c\"\n#if A\nint a;\n#endif\nint b;\n"
        );
        let m = marked(
            &f,
            &[
                (None, "#if B\n"),
                (Some(6), "int a;\n"),
                (None, "#endif\nx;\n"),
            ],
        );
        // `#line 2` is not read when B is false: `x;` is placed again.
        assert_eq!(
            resolve(&m, &f, "o.cu"),
            "#if B\n#line 2 \"in.c\"\nint a;\n#line 5 \"o.cu\"\n#endif\n#line 7 \"o.cu\"\nx;\n"
        );
    }
}
