//! E0209 `target_in_target`: no `target` directive inside a target region.
//!
//! Code in an OpenMP `target` region already runs on the device: a nested
//! `target`, `target data`, `target enter data`, `target exit data` or
//! `target update` inside it has no device to offload to or to copy from,
//! and the specification leaves it undefined. (`declare target` is a
//! declaration and is not concerned.)
//!
//! Bad:
//!
//! ```c
//! #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
//! for (int i = 0; i < n; i++) {
//! #pragma omp target update from(a[i:1])
//!     a[i] += 1;
//! }
//! ```
//!
//! Fix: move the `target update` after the region, where the host can copy
//! the data back.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::Model;

pub const CODES: &[Code] = &[codes::TARGET_IN_TARGET];

fn starts_with_target(cx: &Context, j: usize) -> bool {
    let d = cx.directive(j);
    d.model == Model::Omp
        && spec::leaves_of(d)
            .first()
            .is_some_and(|l| *l == "target" || l.starts_with("target "))
}

fn is_target_region(cx: &Context, j: usize) -> bool {
    let d = cx.directive(j);
    d.model == Model::Omp && spec::leaves_of(d).first() == Some(&"target")
}

/// For every directive, the closest enclosing `target` region, found once
/// per directive: its parent when that is a target region, else the
/// parent's answer (linear however deep the nesting).
fn enclosing_targets(cx: &Context) -> Vec<Option<usize>> {
    let mut known: Vec<Option<Option<usize>>> = vec![None; cx.len()];
    let mut chain = Vec::new();
    for i in 0..cx.len() {
        // Climb until a directive whose answer is known or can be read off
        // its parent directly.
        let mut at = i;
        while known[at].is_none() {
            chain.push(at);
            match cx.parent(at) {
                Some(p) if !is_target_region(cx, p) => at = p,
                _ => break,
            }
        }
        // Fill top-down: each parent is answered before its child.
        for &c in chain.iter().rev() {
            let own = match cx.parent(c) {
                Some(p) if is_target_region(cx, p) => Some(p),
                Some(p) => known[p].flatten(),
                None => None,
            };
            known[c] = Some(own);
        }
        chain.clear();
    }
    known.into_iter().map(Option::flatten).collect()
}

pub fn check(cx: &Context, out: &mut Sink) {
    for (i, outer) in enclosing_targets(cx).into_iter().enumerate() {
        if !starts_with_target(cx, i) {
            continue;
        }
        if let Some(j) = outer {
            out.push(
                i,
                Diagnostic::new(
                    codes::TARGET_IN_TARGET,
                    cx.directive(i).name_span,
                    format!("`{}` inside a target region", cx.title(i)),
                )
                .with_label("already on the device here")
                .with_secondary(cx.directive(j).name_span, "the target region"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn nested_target_directives() {
        let src = "void f(int n, double *a) {\n\
            #pragma omp target teams distribute parallel for map(tofrom: a[0:n])\n\
            for (int i = 0; i < n; i++) {\n\
            #pragma omp target update from(a[i:1])\n\
            a[i] += 1;\n\
            }\n\
            #pragma omp target data map(tofrom: a[0:n])\n\
            {\n\
            #pragma omp target teams distribute parallel for\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            }\n\
            }\n";
        assert_codes("target_in_target", src, "E0209", &[4]);
    }

    /// The closest enclosing target region is found through any number of
    /// data regions and other constructs, and only a `target` counts.
    #[test]
    fn nested_through_data_regions() {
        let src = "void f(int n, double *a) {\n\
            #pragma omp target data map(tofrom: a[0:n])\n\
            #pragma omp target data map(tofrom: a[0:n])\n\
            #pragma omp target teams map(tofrom: a[0:n])\n\
            #pragma omp parallel\n\
            {\n\
            #pragma omp target update from(a[0:1])\n\
            a[0] += 1;\n\
            }\n\
            #pragma omp target data map(tofrom: a[0:n])\n\
            #pragma omp target update from(a[0:1])\n\
            }\n";
        assert_codes("target_in_target", src, "E0209", &[7]);
    }
}
