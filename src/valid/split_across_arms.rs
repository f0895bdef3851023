//! E0221 `split_across_arms`: one construct's pragmas in different `#if` arms.
//!
//! pragma2cuda translates every arm of an `#if` group without evaluating its
//! condition. A pragma that ends an arm governs the statement after the
//! `#endif` (see the README, "Macros, `#if` arms and `--preprocess`"); when
//! another pragma stands between that `#endif` and the statement, the two
//! form one construct in one arm (`target` with its `teams`) and the second
//! alone in the others. Each arm would need its own translation of the
//! statement, which pragma2cuda does not do yet; rather than merge the two
//! into every arm or leave the second pragma on the wrong statement, it
//! refuses the file.
//!
//! Bad:
//!
//! ```c
//! #ifdef GPU
//! #pragma omp target map(tofrom: a[0:n])
//! #endif
//! #pragma omp teams distribute parallel for
//! for (int i = 0; i < n; i++) a[i] += 1;
//! ```
//!
//! Fix: write the whole construct in each arm (`#ifdef GPU` / `#pragma omp
//! target teams distribute parallel for map(...)` / `#else` / `#pragma omp
//! parallel for` / `#endif`), or translate with `--preprocess -DGPU`, where
//! the preprocessor picks the arm first.

use super::{Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::source::cond;

pub const CODES: &[Code] = &[codes::SPLIT_ACROSS_ARMS];

pub fn check(cx: &Context, out: &mut Sink) {
    let text = &cx.file.text;
    if !text.contains("#") || cx.is_empty() {
        return;
    }
    let groups = cond::groups(text);
    if groups.is_empty() {
        return;
    }
    // Directive starts, in text order, to find the ones before a statement.
    let mut starts: Vec<(usize, usize)> = (0..cx.len())
        .map(|i| (cx.directive(i).span.start, i))
        .collect();
    starts.sort_unstable();
    for i in 0..cx.len() {
        let d = cx.directive(i);
        let Some(stmt) = cx.dirs[i].stmt else {
            continue;
        };
        let Some((g, _)) = cond::shared_statement(&groups, d.span, stmt) else {
            continue;
        };
        let Some(endif) = groups[g].endif() else {
            continue;
        };
        let from = starts.partition_point(|&(s, _)| s < endif.end);
        let Some(&(_, j)) = starts[from..].first().filter(|&&(s, _)| s < stmt.start) else {
            continue;
        };
        out.push(
            i,
            Diagnostic::new(
                codes::SPLIT_ACROSS_ARMS,
                d.span,
                format!(
                    "`{}` ends an `#if` arm but `{}` after the `#endif` governs the same statement: the construct is split across `#if` arms",
                    cx.title(i),
                    cx.title(j)
                ),
            )
            .with_label("in one arm only")
            .with_secondary(endif, "the arm ends here")
            .with_secondary(cx.directive(j).span, "outside the arm")
            .with_help("write the whole construct in each arm, or translate with `--preprocess` and the -D flags of your build")
            .with_note(format!("not supported yet: the statement at line {} would need a translation per arm", cx.file.line_of(stmt.start))),
        );
        out.reject_with(j);
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn a_construct_split_by_endif() {
        let src = "void f(int n, double *a) {\n\
            #ifdef GPU\n\
            #pragma omp target map(tofrom: a[0:n])\n\
            #endif\n\
            #pragma omp teams distribute parallel for\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #ifdef GPU\n\
            #pragma omp target teams distribute parallel for map(tofrom: a[0:n])\n\
            #else\n\
            #pragma omp parallel for\n\
            #endif\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            }\n";
        assert_codes("split_across_arms", src, "E0221", &[3]);
    }
}
