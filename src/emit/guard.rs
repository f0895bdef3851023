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
//! The second half of the check: no `omp`/`acc` directive survives as a
//! pragma in device code. In a kernel every directive must have become CUDA
//! (or a comment saying why it runs as plain code): a pragma left there is
//! ignored by nvcc, so its construct would silently run as sequential code
//! of each thread (a `teams` merged into its `target` once stayed in the
//! kernel this way). A device function (`__host__ __device__`) may keep
//! host OpenMP, which its host compilation honours, but never an offload
//! construct (`target`, `teams`, `distribute`, any OpenACC directive).
//!
//! Architecture invariant: a translation that fails this check writes no
//! file; it reports E0990 on each lost or surviving directive.

use crate::diag::{codes, Diagnostic};
use crate::source::mask::{find_pragmas, PragmaForm};
use crate::source::pragma_text::pragma_one_line;
use crate::source::{SourceFile, Span};

/// The directives inside `stmt` (the region's statement) that neither
/// `kernel` nor `host` quotes in a comment, and every directive left as a
/// pragma in `kernel` ([`surviving`]); `pragma` is the region's own pragma.
pub fn lost_directives(
    file: &SourceFile,
    pragma: Span,
    stmt: Span,
    kernel: &str,
    host: &str,
) -> Vec<Diagnostic> {
    let region = Span::new(pragma.start, stmt.end.max(pragma.end));
    let mut lost = surviving(file, region, kernel, |_| true);
    let Some(inner) = file.text.get(stmt.start..stmt.end) else {
        return lost;
    };
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
        if lost.iter().any(|d| d.primary_span() == at) {
            continue; // left in the kernel: reported above
        }
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

/// E0990 on every `omp`/`acc` pragma of `device` (device code, after
/// emission) that `offload` selects (by its one-line text), located at the
/// pragma of `source` (the user's text it came from) written the same way,
/// else at the start of `source`.
pub fn surviving(
    file: &SourceFile,
    source: Span,
    device: &str,
    offload: impl Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for p in find_pragmas(device) {
        let quote = pragma_one_line(device.get(p.span.start..p.span.end).unwrap_or(""));
        if !offload(&quote) {
            continue;
        }
        let at = written_at(file, source, &quote).unwrap_or(Span::new(source.start, source.start));
        out.push(
            Diagnostic::new(
                codes::LOST_CONSTRUCT,
                at,
                "internal error: this directive would be left as a pragma in device code, where it has no effect",
            )
            .with_label("not translated")
            .with_help(
                "no file was written; please report this input to the pragma2cuda developers",
            ),
        );
    }
    out
}

/// E0901 on a region or data construct inside the body of device function
/// `function`: its lowering is host code (map calls, a kernel launch), which
/// the function's device compilation cannot run.
pub fn host_construct_in_device_fn(file: &SourceFile, pragma: Span, function: &str) -> Diagnostic {
    Diagnostic::new(
        codes::NOT_SUPPORTED,
        pragma,
        format!(
            "`{}` in device function `{function}` is not supported yet",
            pragma_one_line(file.slice(pragma))
        ),
    )
    .with_label("lowered to host code, which the device cannot run")
    .with_help("move the construct to the host code that calls the function")
}

/// The pragma of `within` whose one-line text is `quote`.
fn written_at(file: &SourceFile, within: Span, quote: &str) -> Option<Span> {
    let inner = file.text.get(within.start..within.end)?;
    find_pragmas(inner)
        .into_iter()
        .find(|p| {
            inner
                .get(p.span.start..p.span.end)
                .map(pragma_one_line)
                .as_deref()
                == Some(quote)
        })
        .map(|p| Span::new(within.start + p.span.start, within.start + p.span.end))
}

/// Whether a pragma (one-line text) is an offload construct: any OpenACC
/// directive, or an OpenMP one with a `target`, `teams` or `distribute` leaf.
/// Device functions may keep the other OpenMP directives for their host
/// compilation.
pub fn is_offload(quote: &str) -> bool {
    // The directive's name and bare clauses: the words before any `(`
    // (a list item named `teams` is not a leaf).
    let quote = quote.strip_prefix("_Pragma").unwrap_or(quote);
    let quote = quote.trim_start_matches(|c: char| c == '(' || c == '"' || c.is_whitespace());
    let head = quote.split('(').next().unwrap_or("");
    let mut words = head
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .skip_while(|w| *w != "omp" && *w != "acc");
    match words.next() {
        Some("acc") => true,
        Some("omp") => {
            let words: Vec<&str> = words.collect();
            !matches!(words.first(), Some(&("declare" | "begin" | "end")))
                && words
                    .iter()
                    .any(|w| matches!(*w, "target" | "teams" | "distribute"))
        }
        _ => false,
    }
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
        assert!(lost_directives(&f, Span::new(0, 0), stmt, kernel, "").is_empty());
    }

    #[test]
    fn a_missing_directive_is_located_on_its_pragma() {
        let f = file("{\n#pragma omp atomic\nx += 1;\n}\n");
        let stmt = Span::new(0, f.text.len());
        let lost = lost_directives(&f, Span::new(0, 0), stmt, "  x += 1;", "");
        assert_eq!(lost.len(), 1);
        assert_eq!(lost[0].code, codes::LOST_CONSTRUCT);
        assert_eq!(f.slice(lost[0].primary_span()), "#pragma omp atomic");
    }

    #[test]
    fn a_directive_copied_into_device_code_is_not_accounted_for() {
        let f = file("{\n#pragma omp simd\nfor(;;);\n}\n");
        let stmt = Span::new(0, f.text.len());
        assert_eq!(
            lost_directives(&f, Span::new(0, 0), stmt, "\n    #pragma omp simd\n", "").len(),
            1
        );
    }

    #[test]
    fn a_pragma_left_in_the_kernel_is_e0990_at_its_source() {
        // The `teams` merged into `target` was once copied into the kernel
        // while the kernel's header comment quoted it.
        let f = file("#pragma omp target\n{\n#pragma omp teams num_teams(4)\n{ x += 1; }\n}\n");
        let p = Span::new(0, 18);
        let stmt = Span::new(19, f.text.len());
        let kernel = "/* `#pragma omp target #pragma omp teams num_teams(4)` */\n{\n  #pragma omp teams num_teams(4)\n  { x += 1; }\n}\n";
        let lost = lost_directives(&f, p, stmt, kernel, "");
        assert_eq!(lost.len(), 1);
        assert_eq!(lost[0].code, codes::LOST_CONSTRUCT);
        assert_eq!(
            f.slice(lost[0].primary_span()),
            "#pragma omp teams num_teams(4)"
        );
        // Quoted in a comment, or spelled as `_Pragma` in device code.
        let ok = "/* #pragma omp teams num_teams(4): merged */ { x += 1; }";
        assert!(lost_directives(&f, p, stmt, ok, "").is_empty());
        let op = "/* #pragma omp teams num_teams(4) */ { _Pragma(\"omp teams\") x += 1; }";
        assert_eq!(lost_directives(&f, p, stmt, op, "").len(), 1);
    }

    #[test]
    fn offload_constructs_are_told_from_host_openmp() {
        for q in [
            "#pragma omp target update from(a)",
            "#pragma omp teams distribute",
            "#pragma omp distribute parallel for",
            "#pragma acc loop seq",
            "_Pragma(\"omp target\")",
        ] {
            assert!(is_offload(q), "{q}");
        }
        for q in [
            "#pragma omp parallel for private(teams)",
            "#pragma omp simd",
            "#pragma omp declare target",
            "#pragma omp atomic",
            "#pragma GCC ivdep",
        ] {
            assert!(!is_offload(q), "{q}");
        }
    }

    #[test]
    fn continuation_lines_are_joined_as_quotes_are() {
        let f = file("{\n#pragma omp parallel \\\n   for\nfor(;;);\n}\n");
        let stmt = Span::new(0, f.text.len());
        let kernel = "/* line 2: `#pragma omp parallel for` */";
        assert!(lost_directives(&f, Span::new(0, 0), stmt, kernel, "").is_empty());
    }
}
