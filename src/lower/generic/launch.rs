//! Phase 6: the launch shape. Team-size clauses fold when constant and are
//! computed on the host at the launch otherwise (`lower/team_limit.rs`);
//! blocks are the team limit rounded up to whole warps (named barrier
//! counts are multiples of 32), or one thread when nothing forks; the
//! number of teams comes from `num_teams` / `num_gangs` or a default.

use super::construct::Construct;
use super::nested_constructs::NestedParts;
use super::{Ctx, DEFAULT_TEAM, DEFAULT_TEAMS};
use crate::diag::{codes, Diagnostic};
use crate::ir::generic::{GenKind, Spread};
use crate::ir::team_limit::RuntimeLimit;
use crate::ir::Size;
use crate::lower::team_limit;
use crate::sema::loops::int_literal;
use crate::source::Span;

/// How the region is launched.
pub(super) struct Launch {
    /// Teams (blocks).
    pub blocks: Size,
    /// Threads of a parallel region when no clause says otherwise.
    pub team_limit: u32,
    /// Threads per block.
    pub block_threads: u32,
    /// A team size given at run time (see `Generic::runtime_limit`).
    pub runtime_limit: Option<RuntimeLimit>,
    /// The region calls a function holding a parallel construct.
    pub reaches_orphans: bool,
    /// Notes for the plan.
    pub notes: Vec<String>,
}

/// The launch shape of the region.
pub(super) fn shape(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    parts: &NestedParts,
    region_calls: &[(String, Span)],
) -> Launch {
    let (d, kind, one_gang, file, tree) = (rc.d, rc.kind, rc.one_gang, cx.file, cx.tree);
    let (forks, master_loops) = (&parts.forks, &parts.master_loops);
    // Team-size clauses: constants fold, anything else runs on the host.
    let limit_term = |cx: &mut Ctx<'_>, name: &str| team_limit::term(&cx.consts, d, name);
    let clause_size = |name: &str| -> Option<Size> {
        let c = d.clause(name)?;
        let e = c.expr()?;
        Some(match int_literal(&e.text) {
            Some(v) if v >= 1 && v <= u32::MAX as i128 => Size::Fixed(v as u32),
            _ => Size::Clause {
                clause: name.to_string(),
                expr: e.text.clone(),
                span: e.span,
            },
        })
    };
    let has_team_loops = !master_loops.is_empty()
        || forks
            .iter()
            .any(|f| f.ws.as_ref().is_some_and(|w| w.spread == Spread::Grid));
    let mut notes = Vec::new();
    let mut runtime_limit = None;
    let (blocks, team_limit) = match kind {
        GenKind::OmpTarget | GenKind::OmpParallel | GenKind::OmpTeams => {
            let terms = [
                limit_term(cx, "thread_limit"),
                limit_term(cx, "num_threads"),
            ];
            let limit = match team_limit::combine(crate::ir::team_limit::Combine::Min, &terms) {
                Some((bound, rt)) => {
                    runtime_limit = rt;
                    bound
                }
                None => {
                    let lits: Vec<Option<u32>> = forks
                        .iter()
                        .map(|f| {
                            f.num_threads
                                .as_deref()
                                .and_then(|e| cx.consts.eval(e))
                                .filter(|v| (1..=1024).contains(v))
                                .map(|v| v as u32)
                        })
                        .collect();
                    if !lits.is_empty() && lits.iter().all(Option::is_some) {
                        lits.into_iter().flatten().max().unwrap_or(DEFAULT_TEAM)
                    } else {
                        DEFAULT_TEAM
                    }
                }
            };
            let blocks = if kind == GenKind::OmpTeams {
                clause_size("num_teams").unwrap_or_else(|| {
                    if has_team_loops {
                        notes.push(format!("num_teams not given: {DEFAULT_TEAMS} teams"));
                        Size::Fixed(DEFAULT_TEAMS)
                    } else {
                        notes.push("num_teams not given: one team".to_string());
                        Size::Fixed(1)
                    }
                })
            } else {
                Size::Fixed(1)
            };
            (blocks, limit)
        }
        GenKind::AccSerial => (Size::Fixed(1), 1),
        GenKind::AccParallel => {
            let terms = [
                limit_term(cx, "num_workers"),
                limit_term(cx, "vector_length"),
            ];
            let limit = match team_limit::combine(crate::ir::team_limit::Combine::Product, &terms) {
                Some((bound, rt)) => {
                    runtime_limit = rt;
                    bound
                }
                None => 128,
            };
            if one_gang {
                notes.push(
                    "kernels: one gang runs the block (its thread 0 the sequential code, its threads the nested loops)"
                        .to_string(),
                );
            }
            let blocks = if one_gang {
                Some(Size::Fixed(1))
            } else {
                clause_size("num_gangs")
            };
            let blocks = blocks.unwrap_or_else(|| {
                if has_team_loops {
                    notes.push(format!("num_gangs not given: {DEFAULT_TEAMS} gangs"));
                    Size::Fixed(DEFAULT_TEAMS)
                } else {
                    notes.push("num_gangs not given: one gang".to_string());
                    Size::Fixed(1)
                }
            });
            (blocks, limit)
        }
    };
    let reaches_orphans = matches!(
        kind,
        GenKind::OmpTarget | GenKind::OmpTeams | GenKind::AccParallel
    ) && crate::lower::orphan::reaches_parallel(file, tree, region_calls);
    let (team_limit, block_threads) = if forks.is_empty() && !reaches_orphans {
        runtime_limit = None;
        (1, 1)
    } else {
        (team_limit, team_limit.div_ceil(32) * 32)
    };
    if block_threads > 1024 {
        cx.diags.push(
            Diagnostic::new(
                codes::BAD_CLAUSE_ARG,
                d.span,
                format!("{block_threads} threads per block is more than CUDA's 1024"),
            )
            .with_label("in this directive"),
        );
    }
    // Teams with a partial last warp (more than 32 threads, not a multiple
    // of 32) and team barriers: see emit/partial_warp.rs.
    Launch {
        blocks,
        team_limit,
        block_threads,
        runtime_limit,
        reaches_orphans,
        notes,
    }
}
