//! E0219 `declare_target_pairs`: `begin` / `end declare target` in pairs.
//!
//! At file scope, `#pragma omp begin declare target` (or `declare target`
//! with no list and no `to` / `enter` / `link` clause) opens a range whose
//! declarations are compiled for the device too; `#pragma omp end declare
//! target` closes the innermost open range. An `end` with no open range,
//! and a range left open at the end of the file, are errors. (Inside a
//! function these directives are not lowered yet: E0901 says so.)
//!
//! Bad:
//!
//! ```c
//! #pragma omp declare target
//! int table[64];
//! double scale(double x) { return 2 * x; }
//! /* no end declare target */
//! ```
//!
//! Fix: add `#pragma omp end declare target` after the last declaration
//! meant for the device.

use super::{Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::Model;

pub const CODES: &[Code] = &[codes::UNMATCHED_DECLARE];

pub fn check(cx: &Context, out: &mut Sink) {
    let mut open: Vec<usize> = Vec::new();
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if d.model != Model::Omp || cx.dirs[i].function.is_some() {
            continue;
        }
        if d.name == "end declare target" {
            if open.pop().is_none() {
                out.push(
                    i,
                    Diagnostic::new(
                        codes::UNMATCHED_DECLARE,
                        d.name_span,
                        "`end declare target` without a matching `declare target`",
                    )
                    .with_label("nothing to end"),
                );
            }
        } else if d.opens_declare_target_range() {
            open.push(i);
        }
    }
    for i in open {
        let d = cx.directive(i);
        out.push(
            i,
            Diagnostic::new(
                codes::UNMATCHED_DECLARE,
                d.name_span,
                format!("`{}` has no matching `end declare target`", d.name),
            )
            .with_label("opened here"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn unmatched_ends_and_open_ranges() {
        let src = "#pragma omp end declare target\n\
            #pragma omp begin declare target\n\
            int a;\n\
            #pragma omp end declare target\n\
            #pragma omp declare target\n\
            int b;\n\
            #pragma omp declare target to(b)\n";
        assert_codes("declare_target_pairs", src, "E0219", &[1, 5]);
    }
}
