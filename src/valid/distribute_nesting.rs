//! E0208 `distribute_nesting`: `distribute` belongs to a `teams` region.
//!
//! An OpenMP `distribute` construct (and `distribute simd`, `distribute
//! parallel for`, ...) shares loop iterations among the teams of a league, so
//! it must be closely nested in a `teams` region: the closest enclosing
//! OpenMP construct is `teams`, `target teams`, or a combined construct that
//! ends with `teams`.
//!
//! Bad:
//!
//! ```c
//! #pragma omp target map(tofrom: a[0:n])
//! #pragma omp distribute
//! for (int i = 0; i < n; i++) a[i] = i;
//! ```
//!
//! Fix: `#pragma omp target teams distribute` (or put the `distribute` inside
//! `#pragma omp teams`).

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::Model;

pub const CODES: &[Code] = &[codes::DISTRIBUTE_NESTING];

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if d.model != Model::Omp || spec::leaves_of(d).first() != Some(&"distribute") {
            continue;
        }
        let parent = cx.enclosing(i);
        if parent.is_some_and(|p| spec::leaves_of(cx.directive(p)).last() == Some(&"teams")) {
            continue;
        }
        let mut diag = Diagnostic::new(
            codes::DISTRIBUTE_NESTING,
            d.name_span,
            format!("`{}` must be closely nested in a `teams` region", cx.title(i)),
        )
        .with_label("not inside teams")
        .with_help(format!("write `omp target teams {}`, or put it inside `omp teams`", d.name));
        if let Some(p) = parent {
            diag = diag.with_secondary(
                cx.directive(p).name_span,
                format!("closest enclosing construct is `{}`", cx.title(p)),
            );
        }
        out.push(i, diag);
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn distribute_needs_teams() {
        let src = "void f(int n, double *a) {\n\
            #pragma omp target map(tofrom: a[0:n])\n\
            #pragma omp distribute\n\
            for (int i = 0; i < n; i++) a[i] = i;\n\
            #pragma omp target teams\n\
            {\n\
            #pragma omp distribute parallel for\n\
            for (int i = 0; i < n; i++) a[i] = i;\n\
            }\n\
            #pragma omp distribute\n\
            for (int i = 0; i < n; i++) a[i] = i;\n\
            }\n";
        assert_codes("distribute_nesting", src, "E0208", &[3, 10]);
    }
}
