//! Whether a region writes a variable as the variable itself, or only
//! through the private copies of nested constructs.
//!
//! `target parallel`'s firstprivate scalar is one copy the whole team
//! shares; writing it is not lowered yet (E0901 in `assemble.rs`). A write
//! inside a nested construct that privatizes the name (`scope
//! firstprivate(x)`, `for private(x)`, `single firstprivate(x)`, ...)
//! writes that construct's copy instead, and does not count.

use std::collections::BTreeSet;

use crate::front::c::Node;

use crate::front::Attached;

/// The data-sharing clauses that give a nested construct its own copy.
const PRIVATIZING: &[&str] = &[
    "private",
    "firstprivate",
    "lastprivate",
    "reduction",
    "linear",
];

/// `name` is assigned in `stmt` outside every construct of `nested` that
/// privatizes it, or its address is taken anywhere in `stmt`.
pub(super) fn writes_shared(stmt: Node<'_>, text: &str, name: &str, nested: &[&Attached]) -> bool {
    let mut taken = BTreeSet::new();
    super::syntax::address_taken(stmt, text, &mut taken);
    if taken.contains(name) {
        return true;
    }
    let mut writes = Vec::new();
    super::syntax::assignments_to(stmt, text, name, &mut writes);
    writes.iter().any(|w| {
        !nested.iter().any(|a| {
            a.stmt.is_some_and(|s| w.within(s))
                && a.directive
                    .clauses
                    .iter()
                    .filter(|c| PRIVATIZING.contains(&c.name.as_str()))
                    .any(|c| c.items().iter().any(|i| i.name == name))
        })
    })
}
