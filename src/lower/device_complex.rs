//! C99 complex values in device code: not lowered yet (E0901).
//!
//! nvcc compiles arithmetic on `float _Complex` / `double _Complex` in device
//! code into nothing, with no diagnostic: a kernel that sums a complex array
//! has no load of it in its PTX (nvcc 13.5 here; nvcc 13.0 on an H200 gave
//! the same results), so every complex reduction run on the GPU kept its
//! initial value while the emulator and clang-19, which compile the same
//! code correctly, agreed with gcc. A translation must be right with both
//! compilers, so a region whose device code holds a complex value is refused
//! until complex arithmetic is spelled in parts for the device.

use crate::diag::{codes, Diagnostic};
use crate::directives::Directive;
use crate::sema::arith;
use crate::sema::sharing::VarAttr;
use crate::sema::symbols::Scope;
use crate::source::Span;

/// Refuses the region when a variable it uses has a complex type, or its
/// statement (`stmt_text`, starting at `stmt_start`) declares one.
pub fn refuse(
    d: &Directive,
    vars: &[VarAttr],
    symbols: &Scope,
    stmt_text: &str,
    stmt_start: usize,
    diags: &mut Vec<Diagnostic>,
) {
    let used = vars
        .iter()
        .find(|v| arith::classify(&v.sym.ty.base, symbols).is_some_and(|a| a.is_complex()))
        .map(|v| (v.span, format!("`{}` has a C99 complex type", v.sym.name)));
    let declared = || {
        complex_keyword(stmt_text).map(|at| {
            let start = stmt_start + at;
            (
                Span::new(start, start + "_Complex".len()),
                "a C99 complex type in device code".to_string(),
            )
        })
    };
    let Some((span, label)) = used.or_else(declared) else {
        return;
    };
    diags.push(
        Diagnostic::new(
            codes::NOT_SUPPORTED,
            span,
            "C99 complex values in device code are not supported yet",
        )
        .with_label(label)
        .with_secondary(d.span, "offloaded here")
        .with_note("nvcc compiles `_Complex` arithmetic in device code into nothing, without a diagnostic (a kernel summing a complex array loads none of it), so the result would be wrong on the GPU")
        .with_help("keep the real and imaginary parts in two real variables or arrays in the region"),
    );
}

/// The offset of the first `_Complex` keyword in `text`, outside comments
/// and literals.
fn complex_keyword(text: &str) -> Option<usize> {
    words_in_code(text, &["_Complex"])
}

/// The offset of the first run of `words` (whole identifiers, separated by
/// blanks) in `text`, outside comments and literals.
pub(super) fn words_in_code(text: &str, words: &[&str]) -> Option<usize> {
    let code = super::cxx::complex::without_comments_and_strings(text);
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let first = *words.first()?;
    code.match_indices(first).map(|(i, _)| i).find(|&i| {
        if i > 0 && ident(b[i - 1]) {
            return false;
        }
        let mut j = i;
        for (k, w) in words.iter().enumerate() {
            if k > 0 {
                let blank_from = j;
                while b.get(j).is_some_and(|c| c.is_ascii_whitespace()) {
                    j += 1;
                }
                if j == blank_from {
                    return false;
                }
            }
            if !code[j..].starts_with(w) {
                return false;
            }
            j += w.len();
        }
        !b.get(j).is_some_and(|&c| ident(c))
    })
}

#[cfg(test)]
mod tests {
    use super::complex_keyword;

    #[test]
    fn the_keyword_is_found_in_code_only() {
        assert_eq!(complex_keyword("double _Complex z = 0;"), Some(7));
        assert_eq!(complex_keyword("/* _Complex */ int x;"), None);
        assert_eq!(complex_keyword("\"_Complex\"; int my_Complex_x;"), None);
    }
}
