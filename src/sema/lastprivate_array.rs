//! Which arrays `lastprivate` may name on a loop construct lowered in SPMD
//! mode (`target teams distribute parallel for`, `target parallel for`, ...).
//!
//! Lowered: a whole array whose every extent is written and names no
//! variable (`int a[4]`, `double m[N][M]` with `N`, `M` macros), not through
//! `conditional:`. The kernel then declares `T a[N]` in each thread (as it
//! does for a whole array in `private`: a fixed-size local array is what
//! CUDA gives each thread for free, in registers or local memory, with no
//! allocation or indexing of a shared area; the per-launch global area of
//! `privarray` exists for sections and run-time lengths, which a local
//! array cannot have), and the thread that ran the sequentially last
//! iteration copies all of it (`memcpy`, `sizeof`) into the array's device
//! copy, which the host maps tofrom around the launch: a loop with no
//! iterations leaves the original as it was. Refused (located E0901):
//! sections and struct members, arrays of unknown or run-time extent (a
//! device function cannot declare a variable-length array), pointers, and
//! `lastprivate(conditional:)` of an array, whose per-element "last
//! assignment" the SPMD marker scheme does not track, and a typedef of an
//! array (`typedef int vec3[3]`), which the scalar path would assign.

use super::symbols::Symbol;
use crate::diag::{codes, Diagnostic};
use crate::directives::ListItem;

/// Whether `sym` (named by the lastprivate `item`) may be lowered: a
/// scalar (not a typedef of an array) or an array as above; the refusal
/// otherwise.
pub fn check(
    item: &ListItem,
    sym: &Symbol,
    conditional: bool,
    symbols: &crate::sema::symbols::Scope,
) -> Result<(), Box<Diagnostic>> {
    let refuse = |why: String| {
        Err(Box::new(
            Diagnostic::new(codes::NOT_SUPPORTED, item.name_span, why)
                .with_label("not lowered yet")
                .with_note("lowered: lastprivate of a scalar, or of a whole array of constant extents without `conditional:`"),
        ))
    };
    let ty = &sym.ty;
    if ty.is_scalar() && item.sections.is_empty() {
        // A typedef of an array is an array the scalar path would assign.
        if super::layout::resolve_typedefs(ty, symbols).is_array() {
            return refuse(format!(
                "lastprivate of `{}`, whose type `{}` is an array typedef, is not supported yet",
                item.name, ty.base
            ));
        }
        return Ok(());
    }
    if !ty.is_array() || !item.sections.is_empty() || !item.path.is_empty() {
        return refuse(format!(
            "lastprivate of `{}`, which is not a scalar or a whole array, is not supported yet",
            item.name
        ));
    }
    if conditional {
        return refuse(format!(
            "lastprivate(conditional:) of the array `{}` is not supported yet",
            item.name
        ));
    }
    for size in ty.array_sizes() {
        let Some(size) = size else {
            return refuse(format!(
                "lastprivate of `{}`, an array of unknown extent, is not supported yet",
                item.name
            ));
        };
        let names_variable = size
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| {
                symbols
                    .get(w)
                    .is_some_and(|s| !s.is_typedef && !s.ty.is_function())
            });
        if names_variable {
            return refuse(format!(
                "lastprivate of `{}`, a variable-length array, is not supported yet",
                item.name
            ));
        }
    }
    Ok(())
}
