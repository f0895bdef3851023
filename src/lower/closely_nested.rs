//! A `target` (or `target teams`) whose braced block holds nothing but one
//! loop construct is that combined construct:
//!
//! ```c
//! #pragma omp target map(tofrom: sum)
//! {
//!   #pragma omp teams distribute parallel for reduction(+: sum)
//!   for (...) ...
//! }
//! ```
//!
//! is `target teams distribute parallel for map(tofrom: sum)
//! reduction(+: sum)`. OpenMP gives the two forms the same meaning: nothing
//! runs in the block outside the nested construct, so there is no
//! sequential part for a master thread to run. Lowering them alike keeps
//! the braced form in SPMD mode (one kernel, every thread in the loop)
//! instead of generic mode, where the nested construct would be refused or
//! run behind a fork. The unbraced form (both pragmas on the same
//! statement) is `generic::spmd_merge`.
//!
//! One difference between the forms is kept: a scalar the braced form's
//! `target` does not map is firstprivate there, so a reduction into it
//! updates the region's own copy and the host keeps its value. The merged
//! construct maps such a scalar `to` (the reduction starts from the host's
//! value and combines into the device copy, which is not copied back) and
//! the caller warns (W0005): the program is valid, but a result that is
//! computed and then thrown away is rarely what its author meant.

use super::build::{classify, Kind};
use crate::directives::{Clause, ClauseArgs, Directive, ListItem, Model, Word};
use crate::front::{Attached, CTree};
use crate::sema::symbols::{self, Storage};

/// A braced `target` block merged with its one loop construct.
pub struct Merged {
    /// The combined construct, on the loop.
    pub attached: Attached,
    /// The reduction items whose result stays on the device (scalars the
    /// outer `target` leaves firstprivate): the caller warns about each.
    pub discarded: Vec<ListItem>,
}

/// The combined construct `at` and the one construct nested in its block
/// form, or `None` when the block holds anything else. `nested` are the
/// directives inside `at`'s statement (atomics already taken out). The
/// result's statement is the loop and its directive span `at`'s own: the
/// caller widens the built region back to the braced block, which the host
/// code replaces (the loop alone would leave the braces behind).
pub fn merge(tree: &CTree, at: &Attached, nested: &[&Attached]) -> Option<Merged> {
    let d = &at.directive;
    if d.model != Model::Omp || !matches!(d.name.as_str(), "target" | "target teams") {
        return None;
    }
    let [inner] = outermost(nested)[..] else {
        return None;
    };
    // Only the construct and its loop: any other directive inside (a nested
    // `simd`, `atomic` in the loop, ...) keeps the generic lowering, which
    // accounts for each one.
    if nested.len() != 1 {
        return None;
    }
    if !super::generic::only_statement(tree, at.stmt, inner) {
        return None;
    }
    let inner_clauses = inner_clauses(d, &inner.directive)?;
    let discarded = firstprivate_results(tree, at, &inner_clauses)?;
    let mut m = d.clone();
    m.name = format!("{} {}", d.name, inner.directive.name);
    m.clauses.extend(inner_clauses);
    if let Some(first) = discarded.first() {
        // `map(to: ...)` in place of the implicit firstprivate, spanning the
        // first such item (diagnostics about it point at the user's text).
        m.clauses.push(Clause {
            name: "map".into(),
            name_span: first.span,
            args: ClauseArgs::List {
                modifiers: vec![Word {
                    text: "to".into(),
                    span: first.span,
                }],
                items: discarded.clone(),
            },
            span: first.span,
        });
    }
    if !matches!(classify(&m, true), Kind::Offload) {
        return None;
    }
    Some(Merged {
        attached: Attached {
            directive: m,
            stmt: inner.stmt,
            function: at.function.clone(),
        },
        discarded,
    })
}

/// The directives of `nested` that no other directive of `nested` encloses.
fn outermost<'a>(nested: &[&'a Attached]) -> Vec<&'a Attached> {
    nested
        .iter()
        .copied()
        .filter(|n| {
            !nested.iter().any(|o| {
                o.directive.span != n.directive.span
                    && o.stmt.is_some_and(|s| {
                        s.start <= n.directive.span.start && n.directive.span.end <= s.end
                    })
            })
        })
        .collect()
}

/// The variables whose value the nested construct hands back (`reduction`,
/// `lastprivate`, `linear`: `inner`, the clauses it keeps) that the outer
/// directive does not map, or `None` when the merge would change what the
/// program means. On a combined construct those clauses map the variable
/// tofrom (OpenMP 5.2 5.4.5, 5.5.8); in the braced form a scalar the outer
/// `target` does not map is firstprivate there (5.2 5.8.2: not
/// `defaultmap`ped, not a declare target variable), so the result stays in
/// the target region's own copy and the host keeps its value. A reduction
/// into such a local scalar keeps that meaning with `map(to)`; anything
/// else unmapped (a `lastprivate` or `linear` scalar, an item the outer
/// directive names in another clause, a global that may be declare target,
/// an array or section, whose implicit map is tofrom anyway but which the
/// merged construct's checks would see differently, any of them under an
/// `if` clause) keeps the generic lowering.
fn firstprivate_results(tree: &CTree, at: &Attached, inner: &[Clause]) -> Option<Vec<ListItem>> {
    let outer = &at.directive;
    let named = |name: &str, map: bool| {
        outer
            .clauses
            .iter()
            .filter(|c| (c.name == "map") == map)
            .any(|c| c.items().iter().any(|i| i.name == name))
    };
    let unmapped: Vec<(&Clause, &ListItem)> = inner
        .iter()
        .filter(|c| matches!(c.name.as_str(), "reduction" | "lastprivate" | "linear"))
        .flat_map(|c| c.items().iter().map(move |i| (c, i)))
        .filter(|(_, i)| !named(&i.name, true))
        .collect();
    if unmapped.is_empty() {
        return Some(Vec::new());
    }
    // `if`: the host fallback runs the block as written, where such a
    // scalar must stay private too; the merged region's fallback would
    // reduce into the host's variable (the synthetic `map(to)` means
    // nothing on the host).
    if outer.clause("defaultmap").is_some() || outer.clause("if").is_some() {
        return None;
    }
    let stmt = super::generic::node_in(tree, at.stmt?)?;
    let visible = symbols::visible_at(tree.root()?, &tree.text, stmt);
    let mut out: Vec<ListItem> = Vec::new();
    for (c, item) in unmapped {
        let sym = visible.get(&item.name)?;
        let base = sym.ty.unqualified_base();
        let local_scalar = sym.storage != Storage::Global
            && sym.ty.is_scalar()
            && !base.starts_with("struct")
            && !base.starts_with("union");
        if c.name != "reduction"
            || named(&item.name, false)
            || !item.sections.is_empty()
            || !item.path.is_empty()
            || !local_scalar
        {
            return None;
        }
        if !out.iter().any(|o| o.name == item.name) {
            out.push(item.clone());
        }
    }
    Some(out)
}

/// The inner construct's clauses for the combined construct. A variable
/// that both reduce (`target teams reduction(+: s)` around `distribute
/// parallel for reduction(+: s)`) is reduced once: the inner loop folds into
/// the team's copy, which the teams combine, as one reduction over every
/// thread does. So an inner `reduction` clause whose every variable the
/// outer reduces with the same operator is dropped; any other overlap (a
/// different operator, a clause that only partly overlaps) keeps the
/// generic lowering (`None`).
fn inner_clauses(outer: &Directive, inner: &Directive) -> Option<Vec<Clause>> {
    let op = |c: &Clause| c.modifiers().last().map(|w| w.text.clone());
    let outer_reduced = |name: &str| {
        outer
            .clauses
            .iter()
            .filter(|c| c.name == "reduction")
            .find(|c| c.items().iter().any(|i| i.name == name))
            .map(op)
    };
    let mut kept = Vec::new();
    for c in &inner.clauses {
        if c.name != "reduction" {
            kept.push(c.clone());
            continue;
        }
        let theirs: Vec<Option<Option<String>>> =
            c.items().iter().map(|i| outer_reduced(&i.name)).collect();
        if theirs.iter().all(|t| t.is_none()) {
            kept.push(c.clone());
        } else if theirs.iter().all(|t| t.as_ref() == Some(&op(c))) {
            continue;
        } else {
            return None;
        }
    }
    Some(kept)
}
