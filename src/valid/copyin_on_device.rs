//! E0451 `copyin_on_device`: no `copyin` on the device.
//!
//! OpenMP `copyin` copies the initial thread's value of a `threadprivate`
//! variable into every thread of a new team. Threadprivate variables live
//! on the host, one copy per host thread, and have no copy on the device:
//! `copyin` on an offloaded combined construct (`target parallel for
//! copyin(x)`), or on a `parallel` construct inside a `target` region, has
//! nothing to copy.
//!
//! Bad:
//!
//! ```c
//! int counter;
//! #pragma omp threadprivate(counter)
//! ...
//! #pragma omp target parallel for copyin(counter) map(tofrom: a)
//! for (int i = 0; i < n; i++) a[i] = i;
//! ```
//!
//! Fix: drop `copyin`, and pass the value in with `firstprivate` (or map an
//! ordinary variable).

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::Model;

pub const CODES: &[Code] = &[codes::DEVICE_COPYIN];

fn is_target(l: &str) -> bool {
    l == "target"
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if d.model != Model::Omp {
            continue;
        }
        let offloaded = spec::leaves_of(d).iter().any(|l| is_target(l));
        let inside = || {
            cx.ancestors(i).any(|j| {
                let o = cx.directive(j);
                o.model == Model::Omp && spec::leaves_of(o).first().is_some_and(|l| is_target(l))
            })
        };
        let message = if offloaded {
            "`copyin` on an offloaded construct is not allowed: threadprivate variables do not exist on the device"
        } else if inside() {
            "`copyin` on a parallel region inside an offloaded region is not allowed: threadprivate variables do not exist on the device"
        } else {
            continue;
        };
        for c in d.clauses_named("copyin") {
            out.push(
                i,
                Diagnostic::new(codes::DEVICE_COPYIN, c.span, message)
                    .with_label("copyin on the device"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn copyin_offloaded_or_inside_target() {
        let src = "int c;\n#pragma omp threadprivate(c)\n\
            void f(int n, int *a) {\n\
            #pragma omp target parallel for copyin(c) map(tofrom: a[0:n])\n\
            for (int i = 0; i < n; i++) a[i] = i;\n\
            #pragma omp target map(tofrom: a[0:n])\n\
            {\n\
            #pragma omp parallel for copyin(c)\n\
            for (int i = 0; i < n; i++) a[i] = i;\n\
            }\n\
            #pragma omp parallel for copyin(c)\n\
            for (int i = 0; i < n; i++) a[i] = c;\n\
            }\n";
        assert_codes("copyin_on_device", src, "E0451", &[4, 8]);
    }
}
