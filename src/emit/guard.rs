//! The last check before a region's CUDA is written: every `omp`/`acc`
//! directive nested in an offloaded region must be accounted for in the code
//! that replaced the region.
//!
//! Lowering quotes each directive it lowers in a comment of the kernel or of
//! the host code (`/* line 22: `#pragma omp parallel for` */`), and a
//! directive it cannot lower is an error before emission. A nested directive
//! whose text appears nowhere in the region's output was dropped by a
//! translator bug: the user's `atomic` or `parallel for` would silently
//! become plain sequential code. Twice in the project's history a directive
//! that was the unbraced body of a loop was lost this way; the fixture
//! coverage test only sees the fixtures, this check sees every input.
//!
//! A quote at the start of an output line does not count: that is the
//! directive copied into device code, where nvcc ignores it.
//!
//! Architecture invariant: a translation that fails this check writes no
//! file; it reports E0990 on each lost directive.

use crate::diag::{codes, Diagnostic};
use crate::lower::build::pragma_one_line;
use crate::source::mask::{find_pragmas, PragmaForm};
use crate::source::{SourceFile, Span};

/// The directives inside `stmt` (the region's statement) that neither
/// `kernel` nor `host` quotes in a comment.
pub fn lost_directives(file: &SourceFile, stmt: Span, kernel: &str, host: &str) -> Vec<Diagnostic> {
    let Some(inner) = file.text.get(stmt.start..stmt.end) else {
        return Vec::new();
    };
    let mut lost = Vec::new();
    for p in find_pragmas(inner) {
        // A pragma spelled through `_Pragma` is quoted with its expansion
        // (macro use = #pragma ...); only `#pragma` lines are checked.
        if p.form != PragmaForm::Hash {
            continue;
        }
        let Some(written) = inner.get(p.span.start..p.span.end) else {
            continue;
        };
        let quote = pragma_one_line(written);
        if quoted(kernel, &quote) || quoted(host, &quote) {
            continue;
        }
        let at = Span::new(stmt.start + p.span.start, stmt.start + p.span.end);
        lost.push(
            Diagnostic::new(
                codes::LOST_CONSTRUCT,
                at,
                "internal error: this directive is missing from the CUDA written for its region",
            )
            .with_help(
                "no file was written; please report this input to the pragma2cuda developers",
            ),
        );
    }
    lost
}

/// Whether `quote` occurs in `text` other than at the start of a line.
fn quoted(text: &str, quote: &str) -> bool {
    text.match_indices(quote).any(|(i, _)| {
        let line_start = text[..i].rfind('\n').map(|k| k + 1).unwrap_or(0);
        !text[line_start..i].chars().all(|c| c == ' ' || c == '\t')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("t.c", text)
    }

    #[test]
    fn a_quoted_directive_is_accounted_for() {
        let f = file("{\n#pragma omp parallel for\nfor(;;);\n}\n");
        let stmt = Span::new(0, f.text.len());
        let kernel = "  { /* #pragma omp parallel for: iterations */ }";
        assert!(lost_directives(&f, stmt, kernel, "").is_empty());
    }

    #[test]
    fn a_missing_directive_is_located_on_its_pragma() {
        let f = file("{\n#pragma omp atomic\nx += 1;\n}\n");
        let stmt = Span::new(0, f.text.len());
        let lost = lost_directives(&f, stmt, "  x += 1;", "");
        assert_eq!(lost.len(), 1);
        assert_eq!(lost[0].code, codes::LOST_CONSTRUCT);
        assert_eq!(f.slice(lost[0].primary_span()), "#pragma omp atomic");
    }

    #[test]
    fn a_directive_copied_into_device_code_is_not_accounted_for() {
        let f = file("{\n#pragma omp simd\nfor(;;);\n}\n");
        let stmt = Span::new(0, f.text.len());
        assert_eq!(
            lost_directives(&f, stmt, "\n    #pragma omp simd\n", "").len(),
            1
        );
    }

    #[test]
    fn continuation_lines_are_joined_as_quotes_are() {
        let f = file("{\n#pragma omp parallel \\\n   for\nfor(;;);\n}\n");
        let stmt = Span::new(0, f.text.len());
        let kernel = "/* line 2: `#pragma omp parallel for` */";
        assert!(lost_directives(&f, stmt, kernel, "").is_empty());
    }
}
