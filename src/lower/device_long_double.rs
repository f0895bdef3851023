//! `long double` in device code: not lowered (E0901).
//!
//! CUDA device code has no `long double`: nvcc treats it as `double` there
//! (warning 20208) while the host keeps the 16-byte x87 type, so a mapped
//! `long double` array is read with the wrong element size and a scalar
//! with the wrong bits on the GPU. The emulator, which compiles device code
//! for the host, cannot show it. A region whose device code holds a
//! `long double` value is refused; a `long double` reduction variable has
//! its own refusal (lower/reductions) and is left to it.

use crate::diag::{codes, Diagnostic};
use crate::directives::Directive;
use crate::ir::c::Arith;
use crate::sema::arith;
use crate::sema::sharing::VarAttr;
use crate::sema::symbols::Scope;
use crate::source::Span;

/// Refuses the region when a variable it uses (other than one named in
/// the construct's own `reduction` clauses) has `long double` as its base type, or its statement
/// (`stmt_text`, starting at `stmt_start`) spells the type.
pub fn refuse(
    d: &Directive,
    vars: &[VarAttr],
    symbols: &Scope,
    stmt_text: &str,
    stmt_start: usize,
    diags: &mut Vec<Diagnostic>,
) {
    let reduced = |name: &str| {
        d.clauses_named("reduction")
            .any(|c| c.items().iter().any(|it| it.name == name))
    };
    let used = vars
        .iter()
        .filter(|v| !reduced(&v.sym.name))
        .find(|v| arith::classify(&v.sym.ty.base, symbols) == Some(Arith::LongDouble))
        .map(|v| {
            (
                v.span,
                format!("`{}` has the type `long double`", v.sym.name),
            )
        });
    let declared = || {
        long_double_keyword(stmt_text).map(|at| {
            let start = stmt_start + at;
            (
                Span::new(start, start + "long double".len()),
                "`long double` in device code".to_string(),
            )
        })
    };
    let Some((span, label)) = used.or_else(declared) else {
        return;
    };
    diags.push(
        Diagnostic::new(codes::NOT_SUPPORTED, span, "`long double` values in device code are not supported yet")
            .with_label(label)
            .with_secondary(d.span, "offloaded here")
            .with_note("CUDA device code has no `long double`: nvcc treats it as `double` there (warning 20208) while the host keeps its 16-byte type, so the GPU would read the data with the wrong size")
            .with_help("use `double` in the region, converting before and after it"),
    );
}

/// The offset of the first `long double` (the two words, any blank between)
/// in `text`, outside comments and literals.
fn long_double_keyword(text: &str) -> Option<usize> {
    super::device_complex::words_in_code(text, &["long", "double"])
}

#[cfg(test)]
mod tests {
    use super::long_double_keyword;

    #[test]
    fn the_type_is_found_in_code_only() {
        assert_eq!(long_double_keyword("long double x = 0;"), Some(0));
        assert_eq!(long_double_keyword("{ long  double *p; }"), Some(2));
        assert_eq!(long_double_keyword("long long d; double e;"), None);
        assert_eq!(long_double_keyword("/* long double */ int x;"), None);
        assert_eq!(
            long_double_keyword("\"long double\"; int along double_x;"),
            None
        );
    }
}
