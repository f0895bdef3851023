//! An OpenMP pointer mapped itself (5.2 5.8.3): a map clause item of
//! pointer type with no array section, or a pointer under
//! `defaultmap(alloc | to | from | tofrom | present)` (5.8.7), maps the
//! pointer variable itself, not the data it points to. Its device copy is
//! one object, as a scalar's: it holds the pointer's value as the host has
//! it (never translated into a device address), the region may assign it,
//! and `from` / `tofrom` copy the device's value back. Lowered as a mapped
//! scalar of the pointer type (`ir::c::MapMods::itself`); data constructs
//! map the pointer's own bytes (`&p`, `sizeof p`) as they map a scalar.
//!
//! A region that names such a pointer without assigning it can only
//! dereference the value the host gave it. That is valid where the value is
//! a device address (`omp_target_alloc`, a value an earlier region stored)
//! or where every host address is valid on the device (`omp requires
//! unified_shared_memory`, or `unified_address` for device addresses the
//! host computes with): pragma2cuda cannot tell a host address from a
//! device address, so without one of those requirements in the file such a
//! region is refused (E0901), naming the requirement and the array section
//! that maps the data instead.

use super::sharing::DataEnv;
use super::uses::Use;
use crate::diag::{codes, Diagnostic};
use crate::directives::{ListItem, Model};
use crate::ir::c::Symbol;
use crate::source::Span;

/// Whether the map clause item maps the pointer variable itself: an
/// OpenMP pointer named with no array section and no member path.
pub fn is_pointer_itself(model: Model, item: &ListItem, sym: &Symbol) -> bool {
    model == Model::Omp && sym.ty.is_pointer() && item.sections.is_empty() && item.path.is_empty()
}

/// The refusal of a region that names the pointer `name`, mapped itself,
/// without assigning it (see the module's comment), or None when the region
/// assigns it, does not name it, or the file requires unified memory.
/// `span` is the map clause item (or the first use, for `defaultmap`).
pub fn refusal(name: &str, span: Span, used: Option<&Use>, env: &DataEnv) -> Option<Diagnostic> {
    let u = used?;
    if u.assigned || env.unified {
        return None;
    }
    Some(
        Diagnostic::new(
            codes::NOT_SUPPORTED,
            span,
            format!(
                "mapping the pointer `{name}` itself for a region that uses its value without assigning it is not supported yet"
            ),
        )
        .with_label("the pointer variable is mapped, not the data it points to")
        .with_secondary(u.span, "used here with the value the host gave it")
        .with_note("OpenMP maps the pointer's value unchanged: the device may dereference it only if it is a device address or every host address is valid on the device; pragma2cuda cannot tell which")
        .with_help(format!(
            "to map the data it points to, name a section, e.g. `{name}[0:n]`; with `#pragma omp requires unified_shared_memory` (or `unified_address`) at file scope the pointer itself is mapped"
        )),
    )
}
