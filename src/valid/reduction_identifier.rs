//! E0217 `reduction_identifier`, E0902: the reduction operator must exist.
//!
//! The built-in reduction identifiers are `+ * - & | ^ && || min max` in
//! OpenMP and `+ * & | ^ && || min max` in OpenACC (OpenACC has no `-`).
//! OpenMP also accepts an identifier defined by a `declare reduction`
//! directive earlier in the file; OpenACC has no user-defined reductions.
//!
//! - E0217: the identifier is neither built in nor declared before its use
//!   (on a host-only OpenMP directive in a file that includes headers, a
//!   `declare reduction` pragma2cuda cannot see may declare it: then it is
//!   left to the host compiler);
//! - E0902: a declared user-defined reduction used in offloaded code (a
//!   `target`, `teams` or `distribute` directive, or any directive inside a
//!   `target` region): valid OpenMP, but pragma2cuda does not lower it yet.
//!   On the host it is passed through to the host compiler unchanged.
//!
//! Bad:
//!
//! ```c
//! #pragma acc parallel loop reduction(-: s)
//! for (int i = 0; i < n; i++) s -= a[i];
//! ```
//!
//! Fix: reduce with `+` (`s += -a[i]`, or subtract the sum once at the end).

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{ClauseArgs, Model};

pub const CODES: &[Code] = &[codes::UNKNOWN_REDUCTION, codes::USER_REDUCTION];

/// The identifier a `declare reduction(id : types : combiner)` declares.
fn declared_identifier<'a>(cx: &Context<'a>, j: usize) -> Option<&'a str> {
    let d = cx.directive(j);
    if d.model != Model::Omp || d.name != "declare reduction" {
        return None;
    }
    match &d.arg.as_ref()?.args {
        ClauseArgs::Args(a) => a.first().map(|a| a.value.text.as_str()),
        _ => None,
    }
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        for c in &d.clauses {
            let Some(id) = spec::reduction_identifier(c) else {
                continue;
            };
            if spec::reduction_operators(d.model).contains(&id.text.as_str()) {
                continue;
            }
            // The parser reports identifiers that are neither operators nor names.
            let is_name = id
                .text
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
            if !is_name && !spec::reduction_operators(Model::Omp).contains(&id.text.as_str()) {
                continue;
            }
            if d.model == Model::Acc {
                let mut diag = Diagnostic::new(
                    codes::UNKNOWN_REDUCTION,
                    id.span,
                    format!("`{}` is not an OpenACC reduction operator", id.text),
                )
                .with_label("not a reduction operator")
                .with_note("OpenACC reduction operators are `+ * & | ^ && || min max`");
                if id.text == "-" {
                    diag = diag.with_help("reduce with `+` and subtract the total once");
                }
                out.push(i, diag);
                continue;
            }
            let decl = (0..cx.len()).find(|&j| {
                cx.directive(j).span.start < d.span.start
                    && declared_identifier(cx, j) == Some(id.text.as_str())
            });
            match decl {
                None if !cx.offloaded(i) && cx.includes_headers(false) => {}
                None => out.push(
                    i,
                    Diagnostic::new(
                        codes::UNKNOWN_REDUCTION,
                        id.span,
                        format!(
                            "`{}` is neither a reduction operator nor declared by `declare reduction`",
                            id.text
                        ),
                    )
                    .with_label("unknown reduction identifier")
                    .with_note("OpenMP reduction operators are `+ * - & | ^ && || min max`"),
                ),
                Some(j) if cx.offloaded(i) => out.push(
                    i,
                    Diagnostic::new(
                        codes::USER_REDUCTION,
                        id.span,
                        format!(
                            "user-defined reduction `{}` in offloaded code is not supported yet",
                            id.text
                        ),
                    )
                    .with_label("not lowered yet")
                    .with_secondary(cx.directive(j).span, "declared here"),
                ),
                Some(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::{assert_codes, codes_of};

    #[test]
    fn unknown_and_user_defined_identifiers() {
        let src = "struct p { int x; };\n\
            #pragma omp declare reduction(merge : struct p : omp_out.x += omp_in.x)\n\
            void f(int n, double *a, double s, struct p q) {\n\
            #pragma acc parallel loop reduction(-: s)\n\
            for (int i = 0; i < n; i++) s -= a[i];\n\
            #pragma omp parallel for reduction(merge: q)\n\
            for (int i = 0; i < n; i++) q.x += i;\n\
            #pragma omp target teams distribute parallel for reduction(merge: q)\n\
            for (int i = 0; i < n; i++) q.x += i;\n\
            #pragma omp parallel for reduction(mrege: q)\n\
            for (int i = 0; i < n; i++) q.x += i;\n\
            #pragma omp parallel for reduction(-: s)\n\
            for (int i = 0; i < n; i++) s -= a[i];\n\
            }\n";
        assert_eq!(
            codes_of("reduction_identifier", src),
            [
                ("E0217".into(), 4),
                ("E0217".into(), 10),
                ("E0902".into(), 8),
            ]
        );
    }

    #[test]
    fn identifiers_a_header_may_declare() {
        let src = "#include \"ops.h\"\n\
            void f(int n, int *a, int q) {\n\
            #pragma omp parallel for reduction(gcd: q)\n\
            for (int i = 0; i < n; i++) q = a[i];\n\
            #pragma omp target teams distribute parallel for reduction(gcd: q) map(to: a[0:n])\n\
            for (int i = 0; i < n; i++) q = a[i];\n\
            }\n";
        assert_codes("reduction_identifier", src, "E0217", &[5]);
    }
}
