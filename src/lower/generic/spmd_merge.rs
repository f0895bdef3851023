//! `target` directly over a loop construct (`#pragma omp target` /
//! `#pragma omp teams distribute parallel for` / `for`): the combined
//! construct, lowered in SPMD mode instead of generic mode.

use crate::directives::Model;
use crate::front::Attached;
use crate::source::Span;

/// SPMD mode for split constructs: `target` (or `target teams`) whose
/// statement is, with no code between the directives, a loop construct
/// (`#pragma omp target` / `#pragma omp teams distribute parallel for` /
/// `for (...)`) is the combined construct. Returns it, attached to the loop,
/// when the combination is a loop construct lowered in SPMD mode.
pub fn spmd_merge(at: &Attached, nested: &[&Attached]) -> Option<Attached> {
    let d = &at.directive;
    if d.model != Model::Omp || !matches!(d.name.as_str(), "target" | "target teams") {
        return None;
    }
    let stmt = at.stmt?;
    let mut stacked: Vec<&Attached> = nested
        .iter()
        .copied()
        .filter(|n| n.stmt == Some(stmt) && n.directive.span.start > d.span.start)
        .collect();
    stacked.sort_by_key(|n| n.directive.span.start);
    if stacked.is_empty() {
        return None;
    }
    let mut m = d.clone();
    for n in &stacked {
        m.name = format!("{} {}", m.name, n.directive.name);
        m.clauses.extend(n.directive.clauses.iter().cloned());
        m.span = Span::new(m.span.start, n.directive.span.end);
    }
    if !matches!(
        crate::lower::build::classify(&m, true),
        crate::lower::build::Kind::Offload
    ) {
        return None;
    }
    Some(Attached {
        directive: m,
        stmt: Some(stmt),
        function: at.function.clone(),
    })
}
