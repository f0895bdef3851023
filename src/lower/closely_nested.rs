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

use super::build::{classify, Kind};
use crate::directives::{Clause, Directive, Model};
use crate::front::{Attached, CTree};

/// The combined construct `at` and the one construct nested in its block
/// form, or `None` when the block holds anything else. `nested` are the
/// directives inside `at`'s statement (atomics already taken out). The
/// result's statement is the loop and its directive span `at`'s own: the
/// caller widens the built region back to the braced block, which the host
/// code replaces (the loop alone would leave the braces behind).
pub fn merge(tree: &CTree, at: &Attached, nested: &[&Attached]) -> Option<Attached> {
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
    if !results_mapped(d, &inner_clauses) {
        return None;
    }
    let mut m = d.clone();
    m.name = format!("{} {}", d.name, inner.directive.name);
    m.clauses.extend(inner_clauses);
    if !matches!(classify(&m, true), Kind::Offload) {
        return None;
    }
    Some(Attached {
        directive: m,
        stmt: inner.stmt,
        function: at.function.clone(),
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

/// Whether every variable whose value the nested construct hands back
/// (`reduction`, `lastprivate`, `linear`: `inner`, the clauses it keeps) is
/// in a `map` clause of the outer directive. On a combined construct those clauses map the variable
/// tofrom (OpenMP 5.2 5.4.5, 5.5.8); in the braced form a scalar the outer
/// `target` does not map is firstprivate there, so the result stays in the
/// target region's own copy and the host keeps its value. The merge would
/// change that, so such a region keeps the generic lowering.
fn results_mapped(outer: &Directive, inner: &[Clause]) -> bool {
    let mapped: Vec<&str> = outer
        .clauses
        .iter()
        .filter(|c| c.name == "map")
        .flat_map(|c| c.items().iter().map(|i| i.name.as_str()))
        .collect();
    inner
        .iter()
        .filter(|c| matches!(c.name.as_str(), "reduction" | "lastprivate" | "linear"))
        .flat_map(|c| c.items())
        .all(|i| mapped.contains(&i.name.as_str()))
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
