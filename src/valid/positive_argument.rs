//! E0213 `positive_argument`: sizes and counts must be positive.
//!
//! Clauses that give a loop depth (`collapse`, `ordered(n)`), a size
//! (`tile`, `sizes`, `safelen`, `simdlen`, `partial`) or a launch shape
//! (`num_teams`, `num_threads`, `thread_limit`, `num_gangs`, `num_workers`,
//! `vector_length`, `gang(num:)`, `worker(num:)`, `vector(length:)`) need a
//! value of at least 1; a literal 0 or a negative literal is always wrong.
//! (Values that are not literals are checked when the program runs.) Also:
//! `simdlen` may not exceed `safelen`, and OpenACC `gang(dim:)` is 1, 2 or 3.
//!
//! Bad:
//!
//! ```c
//! #pragma omp target teams distribute parallel for collapse(0)
//! for (int i = 0; i < n; i++) a[i] += 1;
//! ```
//!
//! Fix: `collapse(1)` (or drop the clause) for one loop, `collapse(2)` for a
//! nest of two.

use super::{Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{ClauseArgs, ExprText, Model};
use crate::sema::loops::int_literal;

pub const CODES: &[Code] = &[codes::NOT_POSITIVE];

const OMP_POSITIVE: &[&str] = &[
    "collapse",
    "ordered",
    "safelen",
    "simdlen",
    "partial",
    "sizes",
    "num_teams",
    "num_threads",
    "thread_limit",
];

const ACC_POSITIVE: &[&str] = &[
    "collapse",
    "tile",
    "num_gangs",
    "num_workers",
    "vector_length",
    "gang",
    "worker",
    "vector",
];

fn values(args: &ClauseArgs) -> Vec<&ExprText> {
    match args {
        ClauseArgs::Expr { expr, .. } => vec![expr],
        ClauseArgs::Args(a) => a
            .iter()
            .filter(|a| {
                a.name
                    .as_ref()
                    .map_or(true, |n| matches!(n.text.as_str(), "num" | "length"))
            })
            .map(|a| &a.value)
            .collect(),
        _ => vec![],
    }
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        let set = match d.model {
            Model::Omp => OMP_POSITIVE,
            Model::Acc => ACC_POSITIVE,
        };
        for c in &d.clauses {
            if !set.contains(&c.name.as_str()) {
                continue;
            }
            for v in values(&c.args) {
                if let Some(n) = int_literal(&v.text) {
                    if n < 1 {
                        out.push(
                            i,
                            Diagnostic::new(
                                codes::NOT_POSITIVE,
                                v.span,
                                format!("`{}` needs a positive value, not {n}", c.name),
                            )
                            .with_label("must be at least 1"),
                        );
                    }
                }
            }
            if d.model == Model::Acc && c.name == "gang" {
                if let Some(dim) = c.named_arg("dim") {
                    if int_literal(&dim.text).is_some_and(|v| !(1..=3).contains(&v)) {
                        out.push(
                            i,
                            Diagnostic::new(
                                codes::NOT_POSITIVE,
                                dim.span,
                                format!("`gang(dim: {})` must be 1, 2 or 3", dim.text),
                            )
                            .with_label("not a gang dimension"),
                        );
                    }
                }
            }
        }
        if d.model == Model::Omp {
            let lit = |n: &str| {
                d.clause(n)
                    .and_then(|c| c.expr().map(|e| (c, e)))
                    .and_then(|(c, e)| int_literal(&e.text).map(|v| (c, v)))
            };
            if let (Some((simdlen, a)), Some((safelen, b))) = (lit("simdlen"), lit("safelen")) {
                if a > b && b >= 1 {
                    out.push(
                        i,
                        Diagnostic::new(
                            codes::NOT_POSITIVE,
                            simdlen.span,
                            format!("`simdlen({a})` exceeds `safelen({b})`"),
                        )
                        .with_label("larger than safelen")
                        .with_secondary(safelen.span, "safelen here"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn zero_and_negative_literals() {
        let src = "void f(int n, double *a) {\n\
            #pragma omp target teams distribute parallel for collapse(0) num_teams(n)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma acc parallel loop num_gangs(-1) vector_length(128) tile(4, *)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma acc parallel loop gang(num: 0, dim: 4)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp simd simdlen(16) safelen(8)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            }\n";
        assert_codes("positive_argument", src, "E0213", &[2, 4, 6, 6, 8]);
    }
}
