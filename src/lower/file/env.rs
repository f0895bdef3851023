//! The data environment a region sees: the device variables, what the data
//! constructs around it map, whether the file maps data dynamically, and
//! which local pointers cannot point into mapped data.

use super::Input;
use crate::front::Attached;
use crate::ir::data::{DataKind, DataOp};
use crate::ir::declare::DeclarePlan;
use crate::lower::build::{self, Kind};
use crate::sema::sharing::DataEnv;
use std::collections::BTreeSet;

/// Runtime routines that map data outside any structured construct.
const DYNAMIC_MAPPING_CALLS: &[&str] = &[
    "acc_copyin",
    "acc_create",
    "acc_pcopyin",
    "acc_pcreate",
    "acc_present_or_copyin",
    "acc_present_or_create",
    "acc_map_data",
];

/// Whether the file maps data outside structured constructs: an `enter` /
/// `exit data` directive, or code that uses one of the runtime routines
/// that map (`sema::uses::uses_any`).
pub(super) fn maps_dynamically(a: &Input) -> bool {
    a.attached.iter().any(|at| {
        matches!(
            build::classify(&at.directive, at.function.is_some()),
            Kind::Data(DataKind::Enter | DataKind::Exit)
        )
    }) || a
        .tree
        .root()
        .is_some_and(|root| crate::sema::uses::uses_any(root, &a.tree.text, DYNAMIC_MAPPING_CALLS))
}

/// The data environment a region at `at` sees: device variables, what the
/// data constructs around it map, whether the file maps data dynamically
/// and whether it requires unified memory (`(unstructured, unified)`).
pub(super) fn data_env(
    a: &Input,
    at: &Attached,
    data: &[DataOp],
    declare: &DeclarePlan,
    (unstructured, unified): (bool, bool),
) -> DataEnv {
    let pos = at.directive.span.start;
    let func = at.function.as_ref().map(|f| f.0.as_str()).unwrap_or("");
    let mut enclosing = BTreeSet::new();
    let mut device_ptrs = BTreeSet::new();
    for op in data {
        let covers = match (op.kind, op.stmt) {
            (DataKind::Region, Some(stmt)) => op.pragma.start < pos && pos < stmt.end,
            (DataKind::DeclareScope, _) => op.function == func && op.pragma.start < pos,
            _ => false,
        };
        if covers {
            enclosing.extend(op.mapped_names().map(str::to_string));
            device_ptrs.extend(op.device_ptrs.iter().cloned());
        }
    }
    DataEnv {
        declared: declare
            .vars
            .iter()
            .filter(|v| !v.link)
            .map(|v| v.name.clone())
            .collect(),
        enclosing,
        unstructured,
        // With `if` / `self` the region may run on the host, where such a
        // pointer is fine: the run-time lookup stays, for the device path.
        never_mapped: if unstructured
            && at.directive.clause("if").is_none()
            && at.directive.clause("self").is_none()
        {
            never_mapped_in(a, at)
        } else {
            Default::default()
        },
        device_ptrs,
        unified,
    }
}

/// The local pointers of the function around `at` that cannot point into
/// mapped data (`sema::fresh_pointer`).
fn never_mapped_in(a: &Input, at: &Attached) -> BTreeSet<String> {
    let (Some((_, span)), Some(root)) = (&at.function, a.tree.root()) else {
        return Default::default();
    };
    let mut func = root.descendant_for_byte_range(span.start, span.end);
    while let Some(n) = func.filter(|n| n.kind() != "function_definition") {
        func = n.parent();
    }
    let Some(func) = func else {
        return Default::default();
    };
    let pragmas: Vec<&str> = a
        .attached
        .iter()
        .filter(|d| span.start <= d.directive.span.start && d.directive.span.end <= span.end)
        .map(|d| a.file.slice(d.directive.span))
        .collect();
    crate::sema::fresh_pointer::never_mapped(func, &a.file.text, &pragmas)
}
