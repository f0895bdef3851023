//! `lastprivate` on a loop spread over the teams (`distribute`) or over
//! every thread of every team (`distribute parallel for`) inside a region
//! with a structured block.
//!
//! The store itself is the worksharing loop's (`emit/generic.rs`,
//! `ws_loop`): each thread declares its private copy, notes whether it runs
//! the sequentially last iteration of the flattened nest, and after the
//! loop that one thread (of whichever team) assigns its copy to the
//! original list item. In a teams region the original is the variable of
//! the region: a mapped scalar's device copy in global memory (copied back
//! by its map when the kernel ends), a variable of the team's sequential
//! part in that team's registers or frame.
//!
//! Why the sequential part may not name the variable outside the loop:
//! teams never wait for each other inside the kernel, so the stored value
//! exists only in the team that ran the last iteration and, for mapped
//! data, after the kernel. Any other team reading it after the loop (or a
//! team's master writing the shared device copy before its loop, possibly
//! after another team's store) would see or make a value that depends on
//! the teams' timing. Such regions stay located E0901; a region of one team
//! has no other team to race with and is not refused.

use crate::diag::{codes, Diagnostic};
use crate::ir::generic::{PrivKind, PrivVar, Spread};
use crate::source::{mask::mentions_word, Span};

/// Keeps the lastprivate items of a loop over the teams or the grid whose
/// variable the rest of the region's block does not name; refuses (and
/// drops) the others. `construct`: the loop's pragma to the end of its
/// statement; `block`: the region's structured block.
pub fn keep_unshared_uses(
    privs: &mut Vec<PrivVar>,
    spread: Spread,
    one_team: bool,
    construct: Span,
    block: Span,
    text: &str,
    diags: &mut Vec<Diagnostic>,
) {
    if spread == Spread::Team || one_team {
        return;
    }
    let before = text.get(block.start..construct.start).unwrap_or("");
    let after = text.get(construct.end..block.end).unwrap_or("");
    privs.retain(|p| {
        if !matches!(p.kind, PrivKind::Lastprivate { .. }) {
            return true;
        }
        if !mentions_word(before, &p.name) && !mentions_word(after, &p.name) {
            return true;
        }
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                p.span,
                format!(
                    "lastprivate(`{}`) on a loop spread {}, when the region's block names `{}` outside the loop, is not supported yet",
                    p.name,
                    match spread {
                        Spread::Teams => "over the teams",
                        _ => "over the threads of all teams",
                    },
                    p.name
                ),
            )
            .with_label("not lowered yet")
            .with_note("the teams do not wait for each other: only the team that runs the last iteration, and the host after the region, see the value; lowered when only the loop names the variable"),
        );
        false
    });
}
