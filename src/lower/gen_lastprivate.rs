//! `lastprivate(conditional:)` on worksharing loops of generic-mode
//! parallel regions.
//!
//! OpenMP 5.2 5.4.5: the original variable gets the value of the last
//! iteration that assigned it, whichever thread ran it. Each thread records
//! the iteration (+ 1) of its last assignment beside its private copy, as
//! the SPMD path does (`emit/region.rs`, the same markers around the
//! assignments); the pairs are then combined over the team like a
//! reduction whose operator keeps the later iteration (`p2c_lastcond` in
//! templates/p2c_generic.cuh, through the team reduction's warp trees and
//! per-warp slots), and the team's thread 0 stores the winner between two
//! team barriers. This needs the loop's threads to be one team: loops over
//! the teams or over every thread of every team stay located E0901, and so
//! do types the warp shuffles do not move (non-arithmetic, complex,
//! `long double`).

use crate::diag::{codes, Diagnostic};
use crate::ir::generic::{Generic, PrivKind, PrivVar, Spread};
use crate::sema::arith;

/// Whether a `lastprivate(conditional:)` variable of this type can be lowered
/// (the shuffles move arithmetic scalars other than complex and long double).
pub fn type_ok(base: &str, derivs_empty: bool, syms: &crate::sema::symbols::Scope) -> bool {
    derivs_empty
        && !base.contains("long double")
        && arith::classify(base, syms).is_some_and(|a| !a.is_complex())
}

/// The diagnostic for a type `type_ok` refuses.
pub fn type_refused(at: crate::source::Span, name: &str) -> Diagnostic {
    Diagnostic::new(
        codes::NOT_SUPPORTED,
        at,
        format!("lastprivate(conditional:) of `{name}`, which is not an arithmetic scalar (complex and long double excluded), inside a region with a structured block is not supported yet"),
    )
    .with_label("not lowered yet")
}

/// Keeps the conditional lastprivates of a loop whose iterations the threads
/// of one team share; refuses (and drops) the others.
pub fn keep_team_only(privs: &mut Vec<PrivVar>, spread: Spread, diags: &mut Vec<Diagnostic>) {
    if spread == Spread::Team {
        return;
    }
    privs.retain(|p| {
        if p.kind != (PrivKind::Lastprivate { conditional: true }) {
            return true;
        }
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                p.span,
                format!(
                    "lastprivate(conditional:) on a loop spread {} is not supported yet",
                    match spread {
                        Spread::Teams => "over the teams",
                        _ => "over the threads of all teams",
                    }
                ),
            )
            .with_label("not lowered yet")
            .with_note("lowered inside a region: lastprivate(conditional:) on a loop over the threads of one team (omp parallel for, omp for)"),
        );
        false
    });
}

/// Whether a loop has a conditional lastprivate (its fork then has team
/// barriers).
pub fn any(privs: &[PrivVar]) -> bool {
    privs
        .iter()
        .any(|p| p.kind == (PrivKind::Lastprivate { conditional: true }))
}

/// `--emit=plan` lines: one per conditional lastprivate of a loop.
pub fn plan_lines(g: &Generic, file: &crate::source::SourceFile, v: &mut Vec<String>) {
    let loops = g.fork_loops_in_order();
    for w in loops {
        for p in w
            .privates
            .iter()
            .filter(|p| p.kind == (PrivKind::Lastprivate { conditional: true }))
        {
            v.push(format!(
                "lastpriv:  line {}: lastprivate(conditional: {}): each thread records its last assigning iteration ({} assignment{} marked); warp trees keep the later iteration, thread 0 stores its value between two team barriers",
                file.line_of(w.pragma.start),
                p.name,
                p.assigns.len(),
                if p.assigns.len() == 1 { "" } else { "s" }
            ));
        }
    }
}
