//! E0104 `literal_range`: an integer constant in a clause must fit its type.
//!
//! C gives an unsuffixed decimal constant the first of `int`, `long`,
//! `long long` that holds it; one larger than `long long` has no type (gcc
//! and clang reject it, or warn and change its value). A hexadecimal or
//! octal constant, or one with a `u` suffix, may also be `unsigned long
//! long`. The translated clause would carry the constant into CUDA C++,
//! where it is as wrong, so it is refused here, at the constant.
//!
//! Bad:
//!
//! ```c
//! #pragma omp target teams distribute parallel for num_teams(99999999999999999999)
//! for (int i = 0; i < n; i++) a[i] += 1;
//! ```
//!
//! Fix: a constant that fits (`num_teams(65535)`).

use super::{Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{ClauseArgs, ExprText};
use crate::source::Span;

pub const CODES: &[Code] = &[codes::BAD_CLAUSE_ARG];

fn exprs(args: &ClauseArgs) -> Vec<&ExprText> {
    match args {
        ClauseArgs::Expr { expr, .. } => vec![expr],
        ClauseArgs::Args(a) => a.iter().map(|a| &a.value).collect(),
        _ => vec![],
    }
}

/// The integer constants of `text` too large for any type C would give
/// them: (offset, length).
fn too_large(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit() && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let s = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'\'') {
            i += 1;
        }
        let tok: String = text[s..i].chars().filter(|c| *c != '\'').collect();
        let lower = tok.to_ascii_lowercase();
        if lower.contains(['.', 'p']) || (!lower.starts_with("0x") && lower.contains('e')) {
            continue; // floating
        }
        let digits = lower.trim_end_matches(['u', 'l']);
        let unsigned = lower[digits.len()..].contains('u');
        let (radix, body) = if let Some(h) = digits.strip_prefix("0x") {
            (16, h)
        } else if let Some(bn) = digits.strip_prefix("0b") {
            (2, bn)
        } else if digits.len() > 1 && digits.starts_with('0') {
            (8, &digits[1..])
        } else {
            (10, digits)
        };
        let limit = if radix == 10 && !unsigned { i64::MAX as u128 } else { u64::MAX as u128 };
        match u128::from_str_radix(body, radix) {
            Ok(v) if v <= limit => {}
            Ok(_) => out.push((s, i - s)),
            Err(_) if body.chars().all(|c| c.is_digit(radix)) && !body.is_empty() => out.push((s, i - s)),
            Err(_) => {}
        }
    }
    out
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        for c in &d.clauses {
            for e in exprs(&c.args) {
                for (at, len) in too_large(&e.text) {
                    // The expression's text is normalised; point at its span
                    // when the constant is not found in the original.
                    let span = cx
                        .file
                        .text
                        .get(e.span.start..e.span.end)
                        .and_then(|t| t.find(&e.text[at..at + len]))
                        .map(|k| Span::new(e.span.start + k, e.span.start + k + len))
                        .unwrap_or(e.span);
                    out.push(
                        i,
                        Diagnostic::new(
                            codes::BAD_CLAUSE_ARG,
                            span,
                            format!("integer constant `{}` is too large for its type", &e.text[at..at + len]),
                        )
                        .with_label("no C integer type holds this constant")
                        .with_help("use a constant that fits in `long long`, or add a `u` suffix for `unsigned long long`"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::too_large;

    #[test]
    fn constants_beyond_their_type() {
        assert_eq!(too_large("99999999999999999999"), [(0, 20)]);
        assert_eq!(too_large("n + 9223372036854775808"), [(4, 19)]);
        assert!(too_large("9223372036854775807 + 0xffffffffffffffff + 18446744073709551615u").is_empty());
        assert!(too_large("1e300 + 0x1p3 + x99999999999999999999 + 1.5").is_empty());
    }
}
