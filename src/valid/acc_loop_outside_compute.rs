//! E0211 `acc_loop_outside_compute`: OpenACC `loop` and `cache` need their
//! enclosing construct.
//!
//! An OpenACC `loop` directive partitions a loop among the gangs, workers
//! and vector lanes of a compute construct (`parallel`, `kernels`,
//! `serial`). Outside any compute construct it is an orphaned loop, which is
//! only meaningful in a function compiled for the device with an `acc routine`
//! directive; in a plain host function it has nothing to partition. The
//! `cache` directive must be inside a loop.
//!
//! A routine directive on a prototype in a header is invisible here, so in a
//! file with `#include "..."` an orphaned loop is not reported by this rule
//! (lowering still reports it as not supported yet).
//!
//! Bad:
//!
//! ```c
//! void scale(int n, double *a)
//! {
//! #pragma acc loop
//!     for (int i = 0; i < n; i++) a[i] *= 2;
//! }
//! ```
//!
//! Fix: `#pragma acc parallel loop copy(a[0:n])`, or mark the function with
//! `#pragma acc routine` and call it from a compute construct.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::front::fields::NodeFields;
use crate::directives::{ClauseArgs, Model};

pub const CODES: &[Code] = &[codes::ACC_ORPHAN];

/// Whether an `acc routine` directive applies to the function around directive `i`.
fn in_routine(cx: &Context, i: usize) -> bool {
    let Some((fname, fspan)) = &cx.dirs[i].function else {
        return false;
    };
    (0..cx.len()).any(|j| {
        let d = cx.directive(j);
        if d.model != Model::Acc || d.name != "routine" {
            return false;
        }
        match d.arg.as_ref().map(|a| &a.args) {
            Some(ClauseArgs::Expr { expr, .. }) => expr.text == *fname,
            _ => cx.dirs[j].stmt.is_some_and(|s| {
                // The routine directive right before the definition, or before
                // a prototype of the same function.
                s == *fspan || {
                    let text = cx.file.slice(s);
                    text.trim_end().ends_with(';')
                        && text.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == fname)
                }
            }),
        }
    })
}

/// Whether position `pos` is inside a loop statement of the C tree.
fn in_c_loop(cx: &Context, pos: usize) -> bool {
    let Some(root) = cx.tree.root() else {
        return true;
    };
    let mut n = root.descendant_for_byte_range(pos, pos);
    while let Some(node) = n {
        if matches!(node.kind_name(), "for_statement" | "while_statement" | "do_statement") {
            return true;
        }
        n = node.parent();
    }
    false
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if d.model != Model::Acc {
            continue;
        }
        if d.name == "loop" {
            let in_compute = cx
                .ancestors(i)
                .any(|j| spec::is_acc_compute(cx.directive(j)));
            if !in_compute && !in_routine(cx, i) && !cx.includes_headers(true) {
                out.push(
                    i,
                    Diagnostic::new(
                        codes::ACC_ORPHAN,
                        d.name_span,
                        "`acc loop` is not inside a compute construct",
                    )
                    .with_label("nothing to partition this loop among")
                    .with_help("use `acc parallel loop` (or `kernels loop`), or put it inside `acc parallel`"),
                );
            }
        } else if d.name == "cache" && !in_c_loop(cx, d.span.start) {
            out.push(
                i,
                Diagnostic::new(
                    codes::ACC_ORPHAN,
                    d.name_span,
                    "`acc cache` must be inside a loop",
                )
                .with_label("not in a loop")
                .with_help("put it at the top of the body of the loop whose accesses it caches"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::{assert_codes, codes_of};

    #[test]
    fn orphaned_loops_and_caches() {
        let src = "#pragma acc routine worker\n\
            void r(int n, double *a) {\n\
            #pragma acc loop worker\n\
            for (int i = 0; i < n; i++) a[i] = 0;\n\
            }\n\
            void g(int n, double *a);\n\
            #pragma acc routine(g) vector\n\
            void g(int n, double *a) {\n\
            #pragma acc loop vector\n\
            for (int i = 0; i < n; i++) a[i] = 0;\n\
            }\n\
            void f(int n, double *a) {\n\
            #pragma acc loop\n\
            for (int i = 0; i < n; i++) a[i] *= 2;\n\
            #pragma acc parallel\n\
            {\n\
            #pragma acc loop\n\
            for (int i = 0; i < n; i++) {\n\
            #pragma acc cache(a[i:1])\n\
            a[i] *= 2;\n\
            }\n\
            }\n\
            #pragma acc cache(a[0:4])\n\
            }\n";
        assert_codes("acc_loop_outside_compute", src, "E0211", &[13, 23]);
    }

    #[test]
    fn a_routine_may_be_in_a_header() {
        let src = "#include \"kernels.h\"\n\
            void scale(int n, double *a) {\n\
            #pragma acc loop\n\
            for (int i = 0; i < n; i++) a[i] *= 2;\n\
            }\n";
        assert_eq!(codes_of("acc_loop_outside_compute", src), []);
    }
}
