//! Array reductions on loops spread over the teams inside a compute
//! construct with a structured block: `#pragma omp distribute parallel for
//! reduction(+: h[0:m])` inside `omp target teams { ... }`, `acc loop gang
//! reduction(+: h[0:m])` (or `gang vector`) inside an `acc parallel` block.
//!
//! Why no scheme of their own: the teams' results must be combined into the
//! original without atomics on the data and in an order that does not
//! depend on scheduling, which is exactly what an array reduction on the
//! compute construct does (`array_generic::construct_arrays`, the SPMD
//! scheme: a copy per thread of every block, the name bound in every thread
//! to thread 0's copy, the team's; at the kernel's end `p2c_red_array`
//! combines each block's copies, `__threadfence`, an arrival counter, and
//! the last block folds the blocks' copies in block order into the mapped
//! section). So such a reduction is moved onto the compute construct, as
//! `promote_gang_loop_reductions` does for scalars, when that gives the
//! same result: the array is mapped tofrom by the construct and only such
//! loops name it in the block, all with the same operator and section. A
//! master loop (`distribute`, `acc loop gang`) then updates the team's copy
//! directly; a loop over the threads of all teams reduces over each team
//! with the team machinery (`array_generic`, `emit::array_team`: a copy per
//! thread, combined in thread order into the team's copy at the join).
//! Anything else stays a located E0901.

use super::array_bounds::bounds;
use crate::directives::{Directive, ListItem};
use crate::front::Attached;
use crate::sema::sharing::{self, Attr, RedOp, VarAttr};
use crate::source::mask::{mask_spans, mentions_word};
use crate::source::Span;
use std::collections::BTreeSet;

/// Moves the array reductions of the loops over the teams directly in
/// `block` onto the compute construct (`vars` get `Attr::ArrayReduction`);
/// returns the names moved. `over_teams` says whether a directive is such
/// a loop (a master loop or a fork over the threads of all teams). The
/// section's bounds must be values the host can evaluate before the launch
/// (no name in `locals` or `written`, no call): it maps the section then.
#[allow(clippy::too_many_arguments)]
pub fn promote(
    block: Span,
    nested: &[&Attached],
    over_teams: impl Fn(&Directive) -> bool,
    vars: &mut [VarAttr],
    text: &str,
    syms: &crate::sema::symbols::Scope,
    locals: &[String],
    written: &BTreeSet<String>,
) -> Vec<String> {
    let top = |n: &Attached| {
        !nested.iter().any(|o| {
            o.directive.span != n.directive.span
                && o.stmt.is_some_and(|s| n.directive.span.within(s))
        })
    };
    // name -> (operator, first item, its section as text, every item agrees, loops)
    struct Cand {
        name: String,
        op: Option<RedOp>,
        item: ListItem,
        section: String,
        agree: bool,
        loops: Vec<Span>,
    }
    let mut cands: Vec<Cand> = Vec::new();
    for n in nested.iter().filter(|n| top(n) && over_teams(&n.directive)) {
        let Some(stmt) = n.stmt else { continue };
        let whole = Span::new(n.directive.span.start, stmt.end);
        for c in n.directive.clauses.iter().filter(|c| c.name == "reduction") {
            let op = match c.modifiers() {
                [m] => sharing::red_op(&m.text),
                _ => None,
            };
            for item in c.items().iter().filter(|i| i.path.is_empty()) {
                let Some(sym) = syms.get(&item.name) else {
                    continue;
                };
                if item.sections.is_empty() && !sym.ty.is_array() {
                    continue;
                }
                let Ok(b) = bounds(&item.name, &sym.ty, &item.sections, item.span) else {
                    continue;
                };
                let host =
                    super::array_team_area::host_blocker(&b.lo, &b.len, locals, written).is_none();
                let section = format!("{}:{}", b.lo, b.len);
                match cands.iter_mut().find(|x| x.name == item.name) {
                    Some(x) => {
                        x.agree &= host && x.op == op && x.section == section;
                        x.loops.push(whole);
                    }
                    None => cands.push(Cand {
                        name: item.name.clone(),
                        op,
                        item: item.clone(),
                        section,
                        agree: host,
                        loops: vec![whole],
                    }),
                }
            }
        }
    }
    let body = text.get(block.start..block.end).unwrap_or("");
    let mut out = Vec::new();
    for c in cands {
        let (Some(op), true) = (c.op, c.agree) else {
            continue;
        };
        let Some(v) = vars.iter_mut().find(|v| v.sym.name == c.name) else {
            continue;
        };
        if !matches!(
            v.attr,
            Attr::Mapped {
                kind: sharing::MapKind::ToFrom,
                ..
            }
        ) || v.sym.ty.is_scalar()
        {
            continue;
        }
        // Named in the block outside the loops that reduce it?
        let loops: Vec<Span> = c
            .loops
            .iter()
            .map(|l| {
                Span::new(
                    l.start.saturating_sub(block.start),
                    l.end.saturating_sub(block.start),
                )
            })
            .collect();
        let elsewhere = mentions_word(&mask_spans(body, &loops), &c.name);
        if elsewhere {
            continue;
        }
        let Some(sym) = syms.get(&c.name) else {
            continue;
        };
        let Ok((arith, true)) = sharing::reduction_type(&c.item, sym, op, syms) else {
            continue;
        };
        v.attr = Attr::ArrayReduction {
            op,
            arith,
            sections: c.item.sections.clone(),
        };
        out.push(c.name);
    }
    out
}
