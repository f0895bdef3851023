//! E0212 `acc_runtime_in_compute`: `init`, `shutdown` and `set` run on the host.
//!
//! The OpenACC `init`, `shutdown` and `set` directives initialise, shut down
//! or configure the device runtime. They are host operations and may not
//! appear inside a compute construct (`parallel`, `kernels`, `serial`, or a
//! combined form), where the code runs on the device.
//!
//! Bad:
//!
//! ```c
//! #pragma acc parallel loop copy(a[0:n])
//! for (int i = 0; i < n; i++) {
//! #pragma acc set device_num(1)
//!     a[i] += 1;
//! }
//! ```
//!
//! Fix: move the directive before the compute construct.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::Model;

pub const CODES: &[Code] = &[codes::ACC_RUNTIME_IN_COMPUTE];

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if d.model != Model::Acc || !matches!(d.name.as_str(), "init" | "shutdown" | "set") {
            continue;
        }
        if let Some(j) = cx
            .ancestors(i)
            .find(|&j| spec::is_acc_compute(cx.directive(j)))
        {
            out.push(
                i,
                Diagnostic::new(
                    codes::ACC_RUNTIME_IN_COMPUTE,
                    d.name_span,
                    format!("`{}` may not appear inside a compute construct", cx.title(i)),
                )
                .with_label("host-only directive")
                .with_secondary(cx.directive(j).name_span, "compute construct"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn runtime_directives_on_the_device() {
        let src = "void f(int n, double *a) {\n\
            #pragma acc init\n\
            #pragma acc parallel loop copy(a[0:n])\n\
            for (int i = 0; i < n; i++) {\n\
            #pragma acc set device_num(1)\n\
            a[i] += 1;\n\
            }\n\
            }\n";
        assert_codes("acc_runtime_in_compute", src, "E0212", &[5]);
    }
}
