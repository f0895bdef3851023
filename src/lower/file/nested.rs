//! Regions that take over the directives nested in them: generic-mode
//! regions (a compute construct with nested loop or parallel constructs),
//! and combined loop constructs whose nested atomics and in-order loops stay
//! in the SPMD loop (anything else splits the construct, `lower::split`).

use super::{Cx, Walk};
use crate::diag::{codes, Diagnostic};
use crate::directives::{self, Directive};
use crate::front::{Attached, CTree};
use crate::ir::Region;
use crate::lower::{atomic, build_region, generic, split};
use crate::source::{SourceFile, Span};

/// The span of a generic-mode region (pragma to end of statement) and the
/// directives inside it, which its lowering takes over.
fn nested_in<'a>(attached: &'a [Attached], at: &Attached) -> (Span, Vec<&'a Attached>) {
    let d = &at.directive;
    let whole = Span::new(d.span.start, at.stmt.map(|s| s.end).unwrap_or(d.span.end));
    let nested = attached
        .iter()
        .filter(|n| {
            n.directive.span != d.span
                && whole.start <= n.directive.span.start
                && n.directive.span.end <= whole.end
        })
        .collect();
    (whole, nested)
}

/// A loop construct that one thread of an SPMD loop may run in order: `omp
/// simd` and `acc loop seq` with no clause that gives a variable an
/// attribute (a private copy per lane would be shared by the thread's
/// iterations otherwise).
fn runs_in_order(d: &Directive) -> bool {
    let ok = |names: &[&str]| d.clauses.iter().all(|c| names.contains(&c.name.as_str()));
    match d.model {
        directives::Model::Omp => d.name == "simd" && ok(&["safelen", "simdlen", "collapse"]),
        directives::Model::Acc => {
            d.name == "loop" && d.clause("seq").is_some() && ok(&["seq", "collapse"])
        }
    }
}

/// The atomic constructs among `nested`, lowered (`lower::atomic`), and the
/// other directives.
fn take_atomics<'a>(
    file: &SourceFile,
    tree: &CTree,
    nested: Vec<&'a Attached>,
    default_order: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<&'a Attached>, Vec<crate::ir::atomic::AtomicSite>) {
    let mut rest = Vec::new();
    let mut sites = Vec::new();
    for n in nested {
        if atomic::is_atomic(&n.directive) {
            if let Some(s) = atomic::lower(file, tree, &n.directive, n.stmt, default_order, diags) {
                sites.push(s);
            }
        } else {
            rest.push(n);
        }
    }
    (rest, sites)
}

/// A generic-mode region at `at` (`generic::handles`), or the combined
/// construct its closely nested directives make (SPMD mode).
pub(super) fn generic_region(cx: &Cx, w: &mut Walk, at: &Attached, diags: &mut Vec<Diagnostic>) {
    let a = cx.input;
    let kernel = super::kernel_name(a.file, at, w.namer);
    let (whole, nested) = nested_in(a.attached, at);
    w.generic_claimed.push(whole);
    let (nested, atomics) = take_atomics(a.file, a.tree, nested, cx.default_order(), diags);
    let env = super::env::data_env(a, at, &w.data, &w.declare, (cx.unstructured, cx.unified));
    // Stacked on one statement, or closely nested in the braced block (then
    // the region is widened back to the block): the combined construct, in
    // SPMD mode.
    let combined = match generic::spmd_merge(at, &nested) {
        Some(m) => Some((m, false)),
        None => crate::lower::closely_nested::merge(a.tree, at, &nested).map(|m| {
            for item in &m.discarded {
                diags.push(result_discarded(a.file, at, item));
            }
            (m.attached, true)
        }),
    };
    let built = match combined {
        Some((m, widen)) => build_region(
            a.file,
            a.tree,
            &m,
            kernel,
            &env,
            cx.settings.reduction_strategy,
            diags,
        )
        .map(|r| {
            if widen {
                widen_to_block(a.file, r, at, &nested)
            } else {
                r
            }
        }),
        None => super::build_generic_region(cx, at, &nested, kernel, &env, diags),
    };
    if let Some(mut r) = built {
        cx.check_threadprivate(&r, diags);
        r.atomics = atomics;
        w.regions.push(r);
    }
}

/// A combined loop construct at `at` with directives nested in it: atomics,
/// and `omp simd` / `acc loop seq` without data clauses (each thread runs
/// its iteration's loop in order) keep it SPMD; anything else makes it a
/// compute construct plus a loop construct in generic mode. False (nothing
/// done) when nothing is nested, a nested directive was rejected, or the
/// construct cannot be split.
pub(super) fn offload_with_nested(
    cx: &Cx,
    w: &mut Walk,
    at: &Attached,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let a = cx.input;
    let d = &at.directive;
    // A directive on the same statement is an alternative in another `#if`
    // arm (`Walk::inside_region`), not nested.
    let (_, nested) = nested_in(a.attached, at);
    let nested: Vec<&Attached> = nested.into_iter().filter(|n| n.stmt != at.stmt).collect();
    let spmd_ok = |n: &&Attached| atomic::is_atomic(&n.directive) || runs_in_order(&n.directive);
    let split = if !nested.iter().all(spmd_ok) {
        split::split(at, &nested)
    } else {
        None
    };
    // A nested directive with a validation error is never lowered: the
    // region stays as it was (its nesting reported by the caller).
    let rejected = nested.iter().any(|n| {
        a.attached
            .iter()
            .position(|x| x.directive.span == n.directive.span)
            .is_some_and(|k| a.rejected.get(k).copied().unwrap_or(false))
    });
    if rejected || nested.is_empty() || (split.is_none() && !nested.iter().all(spmd_ok)) {
        return false;
    }
    w.generic_claimed
        .extend(nested.iter().map(|n| n.directive.span));
    if let Some(stmt) = at.stmt {
        w.claimed.push((Span::new(d.span.start, stmt.end), stmt));
    }
    let (nested, atomics) = take_atomics(a.file, a.tree, nested, cx.default_order(), diags);
    let in_order = if split.is_none() {
        in_order_notes(a.file, &nested)
    } else {
        vec![]
    };
    let kernel = super::kernel_name(a.file, at, w.namer);
    let env = super::env::data_env(a, at, &w.data, &w.declare, (cx.unstructured, cx.unified));
    let built = match &split {
        Some((compute, lp)) => {
            let mut inner: Vec<&Attached> = vec![lp];
            inner.extend(nested.iter().copied());
            super::build_generic_region(cx, compute, &inner, kernel, &env, diags)
        }
        None => build_region(
            a.file,
            a.tree,
            at,
            kernel,
            &env,
            cx.settings.reduction_strategy,
            diags,
        ),
    };
    if let Some(mut r) = built {
        cx.check_threadprivate(&r, diags);
        r.atomics = atomics;
        r.in_order = in_order;
        w.regions.push(r);
    }
    true
}

/// The comment that replaces each loop construct one thread runs in order.
fn in_order_notes(file: &SourceFile, nested: &[&Attached]) -> Vec<(Span, String)> {
    nested
        .iter()
        .map(|n| {
            (
                n.directive.span,
                format!(
                    "/* {}: each thread runs the loop of its iteration in order */",
                    crate::source::pragma_text::pragma_one_line(file.slice(n.directive.span))
                ),
            )
        })
        .collect()
}

/// W0005: the reduction into `item` inside `at`'s braced block updates the
/// region's firstprivate copy; the host never sees the result.
fn result_discarded(file: &SourceFile, at: &Attached, item: &directives::ListItem) -> Diagnostic {
    let name = &item.name;
    let target = crate::source::pragma_text::pragma_one_line(file.slice(at.directive.name_span));
    Diagnostic::new(
        codes::RESULT_DISCARDED,
        item.span,
        format!("the result of this reduction stays on the device: `{name}` is not mapped by `{target}`, so it is firstprivate there and the host's `{name}` keeps its value"),
    )
    .with_label("reduced into the region's own copy")
    .with_secondary(at.directive.name_span, "no `map` of this variable here")
    .with_note(format!("add `map(tofrom: {name})` to the `target` directive to get the result back"))
}

/// A region built from a construct closely nested in `at`'s braced block
/// (`lower::closely_nested`) replaces the whole block, and its kernel quotes
/// both pragmas.
fn widen_to_block(file: &SourceFile, mut r: Region, at: &Attached, nested: &[&Attached]) -> Region {
    if let Some(stmt) = at.stmt {
        r.stmt = stmt;
    }
    for n in nested {
        let inner = crate::source::pragma_text::pragma_one_line(file.slice(n.directive.span));
        r.pragma_text = format!("{} {inner}", r.pragma_text);
    }
    r
}
