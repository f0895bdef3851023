//! OpenMP's `device(n)` clause on compute constructs (OpenMP 5.2 13.2).
//! The translation has one device: number 0, the GPU. The host's device
//! number (`omp_get_initial_device()`) runs the region's host version, the
//! one an `if` clause that is false runs; any other number stops the
//! program with a runtime error naming the construct (`p2c_device_arg`,
//! templates/p2c_runtime.cuh). A region with no host version (a league of
//! teams, privatised arrays: `lower::generic::host_if`) runs under
//! `p2c_device_gpu_only`, for which the host's number is an error too.
//! The `ancestor` modifier (reverse offload) is refused.

use crate::diag::{codes, Diagnostic};
use crate::directives::{ClauseArgs, Directive};
use crate::source::SourceFile;

/// The device number as written and where the construct is
/// (`"file:line"`, a C string body); `Some(None)` without the clause,
/// `None` when it is refused (the diagnostic pushed).
pub fn device_arg(
    file: &SourceFile,
    d: &Directive,
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<(String, String)>> {
    let Some(c) = d.clause("device") else {
        return Some(None);
    };
    if let ClauseArgs::Expr {
        modifier: Some(m), ..
    } = &c.args
    {
        if m.text != "device_num" {
            diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    m.span,
                    format!("`device({}: ...)` is not supported yet", m.text),
                )
                .with_label("not lowered yet"),
            );
            return None;
        }
    }
    let Some(e) = c.expr() else {
        return Some(None);
    };
    let at = format!(
        "{}:{}",
        crate::source::literal::c_string(&file.name),
        file.line_of(d.span.start)
    );
    Some(Some((e.text.clone(), at)))
}

/// The launch condition for `device(n)` with a host version.
pub fn with_host(dev: &(String, String)) -> String {
    format!("p2c_device_arg((long long)({}), \"{}\")", dev.0, dev.1)
}

/// The launch condition for `device(n)` with no host version.
pub fn gpu_only(dev: &(String, String)) -> String {
    format!("p2c_device_gpu_only((long long)({}), \"{}\")", dev.0, dev.1)
}
