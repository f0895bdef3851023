//! `threadprivate` variables: they exist per host thread only, so an
//! offloaded region that refers to one is diagnosed (OpenMP 5.2 allows them
//! in target regions only through `declare target`, which pragma2cuda does
//! not lower for threadprivate data).

use crate::diag::{codes, Diagnostic};
use crate::directives::{ClauseArgs, Directive, Model};
use crate::sema::sharing::VarAttr;
use crate::sema::Storage;
use crate::source::Span;

/// The variables named by `#pragma omp threadprivate(...)`, with the
/// directive's span.
pub fn names<'d>(directives: impl IntoIterator<Item = &'d Directive>) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for d in directives {
        if d.model != Model::Omp || d.name != "threadprivate" {
            continue;
        }
        if let Some(a) = &d.arg {
            if let ClauseArgs::List { items, .. } = &a.args {
                for i in items {
                    out.push((i.name.clone(), d.span));
                }
            }
        }
    }
    out
}

/// Diagnoses every file-scope variable of a region that a threadprivate
/// directive before the region names.
pub fn check(
    vars: &[VarAttr],
    region: Span,
    threadprivate: &[(String, Span)],
    diags: &mut Vec<Diagnostic>,
) {
    for v in vars {
        if v.sym.storage != Storage::Global {
            continue;
        }
        if let Some((_, at)) = threadprivate
            .iter()
            .find(|(n, at)| *n == v.sym.name && at.start < region.start)
        {
            diags.push(
                Diagnostic::new(
                    codes::DEVICE_THREADPRIVATE,
                    v.span,
                    format!(
                        "`{}` is threadprivate: it has one copy per host thread and none on the device",
                        v.sym.name
                    ),
                )
                .with_label("used in an offloaded region")
                .with_secondary(*at, "declared threadprivate here")
                .with_help("use an ordinary variable, or pass the value in with firstprivate"),
            );
        }
    }
}
