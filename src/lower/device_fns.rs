//! Which functions of the file are compiled for the device too: those the
//! regions call, directly or through each other (implicit `declare target`
//! in OpenMP 5.2, implicit `routine` in OpenACC 3.3). The emitter marks each
//! of their declarations `__host__ __device__`.

use super::Region;
use crate::diag::Diagnostic;
use crate::front::CTree;
use crate::sema::calls::{self, FileFunction};
use crate::sema::symbols::{self, Symbol};
use crate::sema::Deriv;
use crate::source::Span;

/// The device functions of the file, in name order.
pub fn device_functions(
    tree: &CTree,
    text: &str,
    regions: &[Region],
    diags: &mut Vec<Diagnostic>,
) -> Vec<FileFunction> {
    let Some(root) = tree.root() else {
        return Vec::new();
    };
    let calls: Vec<(String, Span)> = regions.iter().flat_map(|r| r.calls.clone()).collect();
    if calls.is_empty() {
        return Vec::new();
    }
    let visible = |name: &str, at: Span| -> Option<Symbol> {
        let node = root.descendant_for_byte_range(at.start, at.end)?;
        let mut s = symbols::visible_at(root, text, node).remove(name)?;
        // A function designator is not a pointer variable.
        if matches!(s.ty.derivs.first(), Some(Deriv::Function)) {
            s.ty.derivs.truncate(1);
        } else if s.ty.is_function() {
            s.ty.derivs.retain(|d| !matches!(d, Deriv::Function));
        }
        Some(s)
    };
    calls::device_functions(root, text, &calls, &visible, diags)
}
