//! E0207 `teams_nesting`: `teams` directly inside `target`, and alone there.
//!
//! An OpenMP `teams` construct (or a combined directive starting with
//! `teams`) either stands on the host outside every OpenMP region, or is
//! closely nested in a `target` construct: the `target`'s statement is the
//! `teams` construct and nothing else, with no other directive in between.
//! That is what lets the implementation launch the league of teams when the
//! target region starts; code beside `teams` would have to run before the
//! league exists.
//!
//! Bad:
//!
//! ```c
//! #pragma omp target map(tofrom: a[0:n])
//! {
//!     a[0] = 0;
//! #pragma omp teams distribute parallel for
//!     for (int i = 1; i < n; i++) a[i] = i;
//! }
//! ```
//!
//! Fix: move `a[0] = 0;` into the loop or out of the target region, or write
//! the combined `#pragma omp target teams distribute parallel for`.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::front::fields::NodeFields;
use crate::directives::Model;
use crate::source::Span;

pub const CODES: &[Code] = &[codes::TEAMS_NESTING];

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if d.model != Model::Omp || spec::leaves_of(d).first() != Some(&"teams") {
            continue;
        }
        let Some(p) = cx.enclosing(i) else {
            continue;
        };
        let pd = cx.directive(p);
        if spec::leaves_of(pd) != ["target"] {
            out.push(
                i,
                Diagnostic::new(
                    codes::TEAMS_NESTING,
                    d.name_span,
                    format!(
                        "`{}` must be closely nested in `omp target`, not in `{}`",
                        cx.title(i),
                        cx.title(p)
                    ),
                )
                .with_label("teams here")
                .with_secondary(pd.name_span, "inside this construct")
                .with_help("put `teams` directly inside `omp target`, or use `omp target teams ...`"),
            );
            continue;
        }
        // The target's statement must be the teams construct alone.
        let (Some(teams_stmt), Some(target_stmt)) = (cx.dirs[i].stmt, cx.stmt_node(p)) else {
            continue;
        };
        let target_span = Span::new(target_stmt.start_byte(), target_stmt.end_byte());
        let mut others: Vec<Span> = Vec::new();
        if target_span == teams_stmt {
            // `#pragma omp target` right before `#pragma omp teams`.
        } else if target_stmt.kind_name() == "compound_statement" {
            let mut c = target_stmt.walk();
            for n in target_stmt.named_children(&mut c) {
                let s = Span::new(n.start_byte(), n.end_byte());
                if n.kind_name() != "comment" && s != teams_stmt {
                    others.push(s);
                }
            }
        } else {
            others.push(target_span);
        }
        if let Some(first) = others.first() {
            out.push(
                i,
                Diagnostic::new(
                    codes::TEAMS_NESTING,
                    *first,
                    "a `target` region that contains `teams` may contain nothing else",
                )
                .with_label("outside the teams construct")
                .with_secondary(d.name_span, "teams here")
                .with_secondary(pd.name_span, "in this target region")
                .with_help("move this code into the teams construct or out of the target region"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn teams_placement() {
        let src = "void f(int n, double *a) {\n\
            #pragma omp target map(tofrom: a[0:n])\n\
            {\n\
            a[0] = 0;\n\
            #pragma omp teams distribute parallel for\n\
            for (int i = 1; i < n; i++) a[i] = i;\n\
            }\n\
            #pragma omp target\n\
            #pragma omp teams\n\
            { a[0] = 1; }\n\
            #pragma omp parallel\n\
            {\n\
            #pragma omp teams\n\
            { a[0] = 1; }\n\
            }\n\
            #pragma omp teams\n\
            { a[0] = 1; }\n\
            }\n";
        assert_codes("teams_nesting", src, "E0207", &[4, 13]);
    }
}
