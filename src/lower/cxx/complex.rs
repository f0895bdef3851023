//! C99 complex numbers in C++: imaginary constants, <complex.h> names, and
//! the `CMPLX` macros (refused).

use super::Edit;
use crate::diag::{codes, Diagnostic};
use crate::source::Span;

/// `text` with comments and string and character literals blanked out,
/// byte for byte (offsets are kept; newlines stay).
pub(crate) fn without_comments_and_strings(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let (skip_to, keep) = match (b[i], b.get(i + 1)) {
            (b'/', Some(b'*')) => (
                text[i + 2..]
                    .find("*/")
                    .map(|k| i + 2 + k + 2)
                    .unwrap_or(b.len()),
                false,
            ),
            (b'/', Some(b'/')) => (
                text[i..].find('\n').map(|k| i + k).unwrap_or(b.len()),
                false,
            ),
            (q @ (b'"' | b'\''), _) => {
                let mut j = i + 1;
                while j < b.len() && b[j] != q && b[j] != b'\n' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                ((j + 1).min(b.len()), false)
            }
            _ => (i + 1, true),
        };
        let end = skip_to.max(i + 1).min(b.len());
        if keep {
            out.push(b[i]);
        } else {
            out.extend(b[i..end].iter().map(|&c| if c == b'\n' { c } else { b' ' }));
        }
        i = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Inserted after `#include <complex.h>`: C++'s <complex.h> is <complex>
/// (plus glibc's declarations only in GNU modes), so C99's names are
/// spelled here: `I` through `_Complex_I`, `complex`, and the part accessors
/// as `__real__` / `__imag__` (which also work in device code).
const COMPLEX_H_AFTER: &str = "\n/* pragma2cuda: C99's <complex.h> names in C++ */\n\
#undef _Complex_I\n#define _Complex_I (p2c_imaginary_f(1.0f))\n#ifndef I\n#define I _Complex_I\n#endif\n\
#ifndef complex\n#define complex _Complex\n#endif\n\
#undef creal\n#define creal(z) (__real__ (z))\n#undef crealf\n#define crealf(z) (__real__ (z))\n\
#undef creall\n#define creall(z) (__real__ (z))\n#undef cimag\n#define cimag(z) (__imag__ (z))\n\
#undef cimagf\n#define cimagf(z) (__imag__ (z))\n#undef cimagl\n#define cimagl(z) (__imag__ (z))";

/// The imaginary constants of `code` (comments and strings blanked): spans
/// and whether each is a `float` one (an `f`/`F` suffix).
fn imaginary_constants(code: &str) -> Vec<(Span, String, bool)> {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = (b[i].is_ascii_digit()
            || (b[i] == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit()))
            && (i == 0 || !(ident(b[i - 1]) || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let start = i;
        let hex = b[i] == b'0' && i + 1 < b.len() && matches!(b[i + 1], b'x' | b'X');
        while i < b.len() {
            let c = b[i];
            let exp = if hex {
                matches!(c, b'p' | b'P')
            } else {
                matches!(c, b'e' | b'E')
            };
            if exp && i + 1 < b.len() && matches!(b[i + 1], b'+' | b'-') {
                i += 2;
            } else if ident(c) || c == b'.' {
                i += 1;
            } else {
                break;
            }
        }
        let tok = &code[start..i];
        let suffix_at = tok
            .rfind(|c: char| {
                !matches!(c, 'i' | 'I' | 'j' | 'J' | 'f' | 'F' | 'l' | 'L' | 'u' | 'U')
                    || (hex && c.is_ascii_hexdigit())
            })
            .map(|k| k + 1)
            .unwrap_or(0);
        let (num, suffix) = tok.split_at(suffix_at);
        if suffix.contains(['i', 'I', 'j', 'J']) && !num.is_empty() {
            let float = !hex && suffix.contains(['f', 'F']);
            let real: String = suffix
                .chars()
                .filter(|c| matches!(c, 'f' | 'F' | 'u' | 'U'))
                .collect();
            out.push((Span::new(start, i), format!("{num}{real}"), float));
        }
    }
    out
}

/// The C99 complex edits: imaginary constants become `p2c_imaginary_f/d`
/// calls; after `#include <complex.h>`, glibc's `_Complex_I` (and so `I`)
/// is redefined the same way and `complex` means `_Complex` again (C++'s
/// <complex.h> undefines it). `CMPLX`, `CMPLXF`, `CMPLXL` stay E0501: they
/// expand to `__builtin_complex`, which C++ compilers do not have.
/// Returns whether the file uses complex numbers (it spells a complex
/// type, includes <complex.h> or writes an imaginary constant): the output
/// then needs the spellings of `emit::complex`.
pub(super) fn complex_edits(
    orig: &str,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let code = without_comments_and_strings(orig);
    let imaginary = imaginary_constants(&code);
    let uses = orig.contains("<complex.h>")
        || crate::source::mask::mentions_word(&code, "_Complex")
        || !imaginary.is_empty();
    for (span, num, float) in imaginary {
        let f = if float { "f" } else { "d" };
        edits.push(Edit::replace(span, format!("p2c_imaginary_{f}({num})")));
    }
    let is_include = |i: usize| {
        let line_start = orig[..i].rfind('\n').map(|k| k + 1).unwrap_or(0);
        let head = orig[line_start..i].trim_start();
        head.strip_prefix('#')
            .is_some_and(|h| h.trim_start().trim_end() == "include")
    };
    for (i, _) in orig
        .match_indices("<complex.h>")
        .filter(|(i, _)| is_include(*i))
    {
        let eol = orig[i..].find('\n').map(|k| i + k).unwrap_or(orig.len());
        edits.push(Edit::insert(eol, 0, COMPLEX_H_AFTER));
    }
    for w in ["CMPLX", "CMPLXF", "CMPLXL"] {
        let mut from = 0;
        while let Some(k) = code[from..].find(w) {
            let at = from + k;
            from = at + w.len();
            let before_ok = at == 0 || {
                let c = code.as_bytes()[at - 1];
                !(c.is_ascii_alphanumeric() || c == b'_')
            };
            let after_ok = code[from..]
                .chars()
                .next()
                .map_or(true, |c| !(c.is_ascii_alphanumeric() || c == '_'));
            if before_ok && after_ok {
                diags.push(
                    Diagnostic::new(
                        codes::NOT_CXX,
                        Span::new(at, from),
                        format!("`{w}` from <complex.h> is not supported yet"),
                    )
                    .with_label("expands to __builtin_complex, which C++ compilers lack")
                    .with_help("build the value from its parts: `__real__ z = x; __imag__ z = y;`"),
                );
            }
        }
    }
    uses
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imag(code: &str) -> Vec<(String, String, bool)> {
        imaginary_constants(code)
            .into_iter()
            .map(|(sp, num, f)| (code[sp.start..sp.end].to_string(), num, f))
            .collect()
    }

    #[test]
    fn imaginary_constants_are_found_and_split() {
        assert_eq!(
            imag("z = 10 + 10 * (__extension__ 1.0iF);"),
            [("1.0iF".to_string(), "1.0F".to_string(), true)]
        );
        assert_eq!(
            imag("a = 2i + 3.5e-2fi + .5j;"),
            [
                ("2i".to_string(), "2".to_string(), false),
                ("3.5e-2fi".to_string(), "3.5e-2f".to_string(), true),
                (".5j".to_string(), ".5".to_string(), false),
            ]
        );
        // Not imaginary: plain literals, identifiers with digits, hex digits.
        assert!(imag("x1i = 1.0f + 2u + 0x1f + 3L + a2i;").is_empty());
    }

    #[test]
    fn blanking_keeps_offsets() {
        let t = "a /* c */ \"s\" // x\nb 'q'";
        let b = without_comments_and_strings(t);
        assert_eq!(b.len(), t.len());
        assert_eq!(b.find('b'), t.find("\nb").map(|i| i + 1));
    }
}
