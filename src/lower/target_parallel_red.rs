//! `reduction` on `omp target parallel` with a structured block, and the
//! map kind of a reduction's RESULT.
//!
//! Why this step and not a new tree: generic mode lowers the block of
//! `target parallel` as one fork of the whole team (fork 1 of
//! `lower/generic/`), so the clause's meaning (OpenMP 5.2 5.5.8: every
//! thread of the team gets a private copy initialised with the identity,
//! and at the end of the region the copies are combined with the original
//! list item) is exactly that of the own clause of a nested `omp
//! parallel`, which generic mode already lowers: `GenRed`s on the fork
//! (each thread's copy shadows the variable, warp trees into `__shared__`
//! slots, thread 0 folds them after named barrier 4 over the block, so any
//! team size works) and `TeamArrayRed`s for array sections (copies in the
//! per-launch area the host sizes, `array_team_area.rs`, combined element
//! by element). The original list item is
//! the variable's device copy: on a combined target construct the
//! reduction maps it tofrom (OpenMP 5.2 17.2) unless a map clause of the
//! construct names it, whose map-type then governs (`sharing::decide`); a
//! region of one team may reduce into a mapped variable. So this step only
//! moves the clause's items from the compute construct to its fork and
//! turns each variable's attribute into that mapping.

use crate::diag::Diagnostic;
use crate::directives::Directive;
use crate::ir::generic::GenRed;
use crate::ir::reduction::TeamArrayRed;
use crate::sema::sharing::{Attr, MapKind, VarAttr};

/// The rule the sharing report and the plan give a scalar moved here.
const RULE: &str =
    "reduction on `target parallel`: mapped, the team's combined value is folded into the device copy";

/// How the device copy of reduction variable `name` is mapped (tofrom
/// unless a map clause of the construct says otherwise).
pub fn result_map(vars: &[VarAttr], name: &str) -> MapKind {
    vars.iter()
        .find_map(|v| match v.attr {
            Attr::Reduction { map, .. } if v.sym.name == name => Some(map),
            _ => None,
        })
        .unwrap_or(MapKind::ToFrom)
}

/// The reductions of `target parallel`'s own clause (`d`), as the
/// reductions of its one fork: scalars and array sections. Each reduced
/// variable becomes a mapped variable (its reduction's map kind for a
/// scalar, tofrom for a section), the original list item the team's
/// thread 0 folds into.
pub fn to_fork(
    d: &Directive,
    vars: &mut [VarAttr],
    diags: &mut Vec<Diagnostic>,
) -> (Vec<GenRed>, Vec<TeamArrayRed>) {
    let mut scalars = Vec::new();
    let mut arrays = Vec::new();
    for v in vars.iter_mut() {
        match v.attr.clone() {
            Attr::Reduction { op, arith, map } => {
                scalars.push(GenRed::of(v, op, arith));
                v.attr = Attr::Mapped {
                    kind: map,
                    sections: vec![],
                    mods: Default::default(),
                };
                v.rule = RULE;
            }
            Attr::ArrayReduction {
                op,
                arith,
                sections,
            } => {
                let item = d
                    .clauses
                    .iter()
                    .filter(|c| c.name == "reduction")
                    .flat_map(|c| c.items())
                    .find(|i| i.name == v.sym.name);
                let Some(item) = item else { continue };
                match TeamArrayRed::from_item(d.span, item, &v.sym, op, arith) {
                    Ok(a) => arrays.push(a),
                    Err(e) => {
                        diags.push(*e);
                        continue;
                    }
                }
                // The rule stays the clause's: an implicitly mapped whole
                // array may use a present part of itself, a reduction's may not.
                v.attr = Attr::Mapped {
                    kind: MapKind::ToFrom,
                    sections,
                    mods: Default::default(),
                };
            }
            _ => {}
        }
    }
    (scalars, arrays)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_map_defaults_to_tofrom() {
        assert_eq!(result_map(&[], "sum"), MapKind::ToFrom);
    }
}
