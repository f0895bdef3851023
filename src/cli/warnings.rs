//! `-w`, `-Werror`, `-Wno-CODE`, `-WCODE`: applied to the translation's
//! diagnostics before they are counted and shown.

use super::args::WarnArgs;
use pragma2cuda::diag::{Diagnostic, Severity};

/// Whether warning `code` is on after `w`'s `-Wno-CODE` / `-WCODE` (the
/// last one naming the code wins; every warning is on by default).
fn enabled(w: &WarnArgs, code: &str) -> bool {
    !w.none
        && w.codes
            .iter()
            .rev()
            .find(|(c, _)| c == code)
            .map_or(true, |(_, off)| !off)
}

/// Drops the warnings turned off; with `-Werror`, the others become errors.
pub fn apply(diags: &mut Vec<Diagnostic>, w: &WarnArgs) {
    diags.retain(|d| d.severity != Severity::Warning || enabled(w, d.code.as_str()));
    if w.error {
        for d in diags.iter_mut().filter(|d| d.severity == Severity::Warning) {
            d.severity = Severity::Error;
            d.notes.push(format!(
                "warning {} is an error under -Werror",
                d.code.as_str()
            ));
        }
    }
}
