//! E0205 `loop_association`, E0301: a loop directive needs its loops.
//!
//! A loop directive (OpenMP `for`, `simd`, `distribute`, `loop`,
//! `taskloop`, `tile`, `unroll` and their combined forms; OpenACC `loop`,
//! `parallel loop`, `kernels loop`, `serial loop`) applies to the `for`
//! statement right after it, and to as many perfectly nested loops as its
//! clauses ask for: `collapse(n)` and `ordered(n)` ask for `n`, `tile(a, b)`
//! (OpenACC) and `sizes(a, b)` (OpenMP `tile`) for one per size. "Perfectly
//! nested" means each loop's body is the next loop, alone (braces allowed).
//! Every one of those loops must be in canonical form: `for (init; test;
//! increment)` with `init` `T i = lb` or `i = lb`, `test` comparing `i` with
//! `<`, `<=`, `>`, `>=` or `!=`, and `increment` one of `i++`, `++i`, `i--`,
//! `--i`, `i += s`, `i -= s`, `i = i + s`, `i = s + i`, `i = i - s` (E0301),
//! because the iteration count must be computable before the loop runs.
//!
//! A depth given by a name (`collapse(N)` with a macro `N`) cannot be read
//! here; then one loop is checked. OpenACC's `collapse(force: n)` asks for
//! `n` loops that need not be perfectly nested (code between them is
//! allowed): only the first loop is checked here (its lowering is not there
//! yet: E0901).
//!
//! Bad:
//!
//! ```c
//! #pragma omp parallel for collapse(2)
//! for (int i = 0; i < n; i++) {
//!     row[i] = 0;
//!     for (int j = 0; j < m; j++) a[i][j] = 0;
//! }
//! ```
//!
//! Fix: move `row[i] = 0;` out of the nest (its own loop), or use
//! `collapse(1)`.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{Directive, Model};
use crate::sema::loops::{self, int_literal};
use crate::source::Span;

pub const CODES: &[Code] = &[codes::NO_ASSOCIATED_LOOP, codes::LOOP_NOT_CANONICAL];

/// How many loops the directive is associated with, the message head for a
/// nest that is too shallow, and the clause that asked (span and label).
pub(super) fn depth(d: &Directive) -> (usize, String, Span, String) {
    let mut best = (1, String::new(), d.span, String::new());
    let mut consider = |n: usize, what: String, span: Span, clause: &str| {
        if n > best.0 {
            best = (n, what, span, format!("{clause} asked for here"));
        }
    };
    for c in &d.clauses {
        match (d.model, c.name.as_str()) {
            (Model::Acc, "collapse") if c.expr_modifier().is_some_and(|m| m.text == "force") => {}
            (_, "collapse") | (Model::Omp, "ordered") => {
                if let Some(v) = c.expr().and_then(|e| int_literal(&e.text)) {
                    if (1..=64).contains(&v) {
                        consider(v as usize, format!("{}({v})", c.name), c.span, &c.name);
                    }
                }
            }
            (Model::Acc, "tile") | (Model::Omp, "sizes") => {
                let n = c.args_list().len();
                consider(
                    n,
                    format!("`{}` with {n} sizes", c.name),
                    c.span,
                    &c.name,
                );
            }
            _ => {}
        }
    }
    best
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if !spec::is_loop_directive(d) {
            continue;
        }
        if cx.dirs[i].stmt.is_none() {
            out.push(
                i,
                Diagnostic::new(
                    codes::NO_ASSOCIATED_LOOP,
                    d.span,
                    format!(
                        "`{} {}` must be followed by a for loop",
                        d.model.as_str(),
                        d.name
                    ),
                )
                .with_label("no statement follows"),
            );
            continue;
        }
        let Some(stmt) = cx.stmt_node(i) else {
            continue;
        };
        if stmt.has_error() {
            continue;
        }
        let (n, what, asked, label) = depth(d);
        // The string-free check first; the full analysis only for its diagnostic.
        if loops::nest_is_canonical(stmt, &cx.file.text, n) {
            continue;
        }
        if let Err(e) = loops::nest(stmt, &cx.file.text, n, &what, asked, &label) {
            out.push(i, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::{assert_codes, codes_of};

    #[test]
    fn loops_after_loop_directives() {
        let src = "void f(int n, int m, double *a, double (*b)[8]) {\n\
            int i = 0;\n\
            #pragma omp parallel for\n\
            while (i < n) i++;\n\
            #pragma omp parallel for collapse(2)\n\
            for (int i = 0; i < n; i++) { a[i] = 0; for (int j = 0; j < m; j++) b[i][j] = 0; }\n\
            #pragma acc parallel loop tile(4, 4)\n\
            for (int i = 0; i < n; i++) for (int j = 0; j < 8; j++) b[i][j] = 0;\n\
            #pragma omp simd\n\
            for (int i = 1; i < n; i *= 2) a[i] = 0;\n\
            #pragma omp parallel\n\
            a[0] = 1;\n\
            #pragma acc kernels loop collapse(3)\n\
            for (int i = 0; i < n; i++) for (int j = 0; j < 8; j++) b[i][j] = 0;\n\
            }\n";
        assert_eq!(
            codes_of("loop_association", src),
            [
                ("E0205".into(), 4),
                ("E0205".into(), 6),
                ("E0205".into(), 14),
                ("E0301".into(), 10),
            ]
        );
    }

    #[test]
    fn a_directive_at_the_end_of_a_block_has_no_loop() {
        let src = "void f(void) {\n#pragma acc loop\n}\n";
        assert_codes("loop_association", src, "E0205", &[2]);
    }
}
