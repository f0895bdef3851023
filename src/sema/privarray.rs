//! Which arrays and array sections can be privatized with their elements
//! (`Attr::ArrayPrivate`): `private(c[0:n])` / `firstprivate(c[lo:n])` on
//! OpenACC constructs, `firstprivate(arr)` of a whole array in both models,
//! and OpenMP's `defaultmap(firstprivate)` of an array on `target`.
//!
//! Why a separate attribute: a whole array's `private` is an automatic array
//! of each thread (or staged in the team's frame), but a runtime-sized
//! section has no C declaration to copy, and a firstprivate array must not
//! be passed to the kernel as a parameter (it would decay to the host's
//! address). The lowering (`lower/privarray.rs`) gives every copy its own
//! slice of one global-memory area the host allocates per launch.
//!
//! What the languages allow: OpenACC 3.3 (2.5.13 / 2.5.14) allows array
//! sections in `private` and `firstprivate`. OpenMP 5.2 (3.2.1, 5.4.3,
//! 5.4.4) takes a *variable* list there: an array section is part of a
//! variable, so it is refused (E0402) with the language's reason.

use super::symbols::Symbol;
use super::{arith, CType, Deriv};
use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, ListItem, Model};

/// The attribute of `item` (a section, or a whole array under
/// `firstprivate`) in a `private` (`first` false) or `firstprivate` clause
/// of `dir`, or the located error saying why it cannot be privatized.
pub fn attr(
    dir: &Directive,
    first: bool,
    item: &ListItem,
    sym: &Symbol,
    symbols: &crate::sema::symbols::Scope,
) -> Result<super::sharing::Attr, Box<Diagnostic>> {
    let clause = if first { "firstprivate" } else { "private" };
    if !item.sections.is_empty() && dir.model == Model::Omp {
        return Err(Box::new(
            Diagnostic::new(
                codes::BAD_SECTION,
                item.span,
                format!("an array section cannot appear in an OpenMP `{clause}` clause"),
            )
            .with_label("section")
            .with_note("OpenMP 5.2 (5.4.3, 5.4.4): the list items of private and firstprivate are variables; an array section is part of a variable")
            .with_help(format!("privatize the whole array: `{clause}({})`", item.name)),
        ));
    }
    let unsupported = |msg: String| {
        Box::new(
            Diagnostic::new(codes::NOT_SUPPORTED, item.span, msg)
                .with_label(format!("`{}` has type `{}`", item.name, sym.ty.type_name()))
                .with_secondary(sym.span, "declared here"),
        )
    };
    if item.sections.is_empty() {
        return match whole_array(sym, symbols) {
            Ok(()) => Ok(super::sharing::Attr::ArrayPrivate {
                first,
                sections: vec![],
            }),
            Err(why) => Err(unsupported(format!(
                "`{clause}` of the array `{}`: {why}",
                item.name
            ))),
        };
    }
    let [s] = item.sections.as_slice() else {
        return Err(unsupported(format!(
            "`{clause}` of a section of more than one dimension is not supported yet"
        )));
    };
    if s.is_index {
        return Err(unsupported(format!(
            "`{clause}` of one array element is not supported yet"
        )));
    }
    if sym.ty.dims() != 1 || !element_ok(&sym.ty.element(), symbols) {
        return Err(unsupported(format!(
            "`{clause}` of a section of `{}` is not supported yet (one-dimensional arrays and pointers to scalars or structures are)",
            item.name
        )));
    }
    if s.length.is_none() && !sym.ty.is_array() {
        return Err(Box::new(
            Diagnostic::new(
                codes::BAD_SECTION,
                item.span,
                format!("the section of the pointer `{}` needs a length", item.name),
            )
            .with_label("no length")
            .with_help(format!("name the length: `{}[lo:len]`", item.name)),
        ));
    }
    Ok(super::sharing::Attr::ArrayPrivate {
        first,
        sections: item.sections.clone(),
    })
}

/// Whether a whole array can get per-team or per-thread copies: one
/// dimension of a constant extent, elements the kernel can copy.
pub fn whole_array(sym: &Symbol, symbols: &crate::sema::symbols::Scope) -> Result<(), String> {
    let Some(Deriv::Array(extent)) = sym.ty.derivs.first() else {
        return Err("not an array".into());
    };
    let Some(extent) = extent else {
        return Err("its extent is not known here".into());
    };
    if sym.ty.dims() != 1 || !element_ok(&sym.ty.element(), symbols) {
        return Err("arrays of more than one dimension are not supported yet".into());
    }
    let vla = extent
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| {
            symbols
                .get(w)
                .is_some_and(|s| !s.is_typedef && !s.ty.is_function())
        });
    if vla {
        return Err("variable-length arrays are not supported yet".into());
    }
    Ok(())
}

/// Elements are copied as values of their type: no arrays or pointers to
/// follow, and no C99 complex values (nvcc cannot build them in device code
/// from parts).
fn element_ok(elem: &CType, symbols: &crate::sema::symbols::Scope) -> bool {
    elem.derivs.is_empty()
        && !elem.base.split_whitespace().any(|w| w == "_Complex")
        && !arith::classify(&elem.base, symbols).is_some_and(|a| a.is_complex())
}
