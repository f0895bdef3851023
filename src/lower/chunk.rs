//! `schedule` and `dist_schedule` on an SPMD loop construct: which
//! iterations each worker runs (see `ir::region::Chunk`).
//!
//! The loop's workers are numbered as the SPMD loop numbers them (every
//! thread of every block for a grid-stride loop, the block's threads for a
//! block-stride loop, the blocks for a block-only loop). A chunk size c
//! gives worker w the chunks w, w + W, w + 2W, ... of c consecutive
//! iterations (W workers):
//! - `schedule(static, c)` exactly; `schedule(static)` with c = the trip
//!   count over W rounded up (one contiguous chunk per worker). On a
//!   grid-stride loop the teams then hold consecutive ranges of W/teams
//!   chunks: a `dist_schedule(static, c x threads)`, the implementation's
//!   choice when no `dist_schedule` is given.
//! - `dist_schedule(static[, c])` on `target teams distribute` (a worker is
//!   a team) exactly; on `target teams distribute parallel for` without
//!   `schedule` chunks over the teams, split by each team's threads
//!   ([`decide_spmd`]); with `schedule` too, or in generic mode, it is
//!   refused (two levels of chunks).
//! - `schedule(dynamic[, c])`, `guided[, c]`: chunks of c (default 1)
//!   assigned round-robin, one of the assignments those kinds allow (each
//!   chunk runs on one thread, each thread takes its next chunk after the
//!   previous one); no atomic counter yet, so no load balancing.
//! - `schedule(auto)`: the SPMD loop as it is. `schedule(runtime)` is
//!   refused: the device's `run-sched-var` is not modelled.
//!
//! Refused (E0901): a chunk that is not a constant of at least 1, `tile`
//! with a chunk, modifiers other than `monotonic` / `nonmonotonic` / `simd`.

use crate::diag::{codes, Diagnostic};
use crate::directives::{Clause, Directive};
use crate::ir::region::{Chunk, Schedule};
use crate::sema::layout::Consts;
use crate::source::SourceFile;

fn refuse(c: &Clause, msg: String) -> Diagnostic {
    Diagnostic::new(codes::NOT_SUPPORTED, c.span, msg).with_label("not lowered yet")
}

/// The chunk of the loop's workers, or the diagnostics that refuse it.
pub fn decide(
    file: &SourceFile,
    d: &Directive,
    schedule: Schedule,
    tiled: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Chunk> {
    let sched = d.clause("schedule");
    let dist = d.clause("dist_schedule");
    let (c, kind, size) = match (sched, dist) {
        (None, None) => return None,
        (Some(c), None) => {
            let (k, s) = args(c);
            (c, k, s)
        }
        (None, Some(c)) if schedule == Schedule::BlockOnly => {
            let (k, s) = args(c);
            (c, k, s)
        }
        (_, Some(c)) => {
            diags.push(refuse(
                c,
                format!(
                    "`dist_schedule` on `omp {}` is not supported yet (chunks over the teams and then over each team's threads)",
                    d.name
                ),
            ));
            return None;
        }
    };
    let consts = crate::sema::visible::memo_for_text(&file.text, || Consts::from_text(&file.text));
    let size = match size {
        None => None,
        Some(t) => {
            match consts.eval(&t) {
                Some(v) if (1..=u32::MAX as i128).contains(&v) => Some(v as u64),
                _ => {
                    diags.push(refuse(
                    c,
                    format!("a chunk size `{t}` that is not a constant from 1 up is not supported yet"),
                ));
                    return None;
                }
            }
        }
    };
    let chunk = match (kind.as_str(), size) {
        ("static", None) => Some(Chunk::Even),
        ("static" | "dynamic" | "guided", Some(n)) => Some(Chunk::Size(n)),
        ("dynamic" | "guided", None) => Some(Chunk::Size(1)),
        ("auto", None) => return None,
        (k, _) => {
            diags.push(refuse(
                c,
                format!(
                    "`{}({k})` on an offloaded loop is not supported yet",
                    c.name
                ),
            ));
            return None;
        }
    };
    if tiled {
        diags.push(refuse(
            c,
            format!("`{}` with `tile` is not supported yet", c.name),
        ));
        return None;
    }
    chunk
}

/// [`decide`] for an SPMD loop construct (`lower/build.rs`), where a
/// grid-stride loop (`target teams distribute parallel for`) with
/// `dist_schedule` and no `schedule` is lowered too:
/// `dist_schedule(static, c)` gives team t the chunks t, t + T, ... of c
/// iterations and the team's threads split each chunk (`Chunk::Teams`);
/// `dist_schedule(static)` is the even split over the grid's threads, which
/// gives each team one contiguous range of about trip / T iterations.
pub fn decide_spmd(
    file: &SourceFile,
    d: &Directive,
    schedule: Schedule,
    tiled: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Chunk> {
    let (None, Some(c), Schedule::GridStride, false) = (
        d.clause("schedule"),
        d.clause("dist_schedule"),
        schedule,
        tiled,
    ) else {
        return decide(file, d, schedule, tiled, diags);
    };
    let (kind, size) = args(c);
    if kind != "static" {
        return decide(file, d, schedule, tiled, diags);
    }
    let Some(t) = size else {
        return Some(Chunk::Even);
    };
    let consts = crate::sema::visible::memo_for_text(&file.text, || Consts::from_text(&file.text));
    match consts.eval(&t) {
        Some(v) if (1..=u32::MAX as i128).contains(&v) => Some(Chunk::Teams(v as u64)),
        _ => {
            diags.push(refuse(
                c,
                format!("a chunk size `{t}` that is not a constant from 1 up is not supported yet"),
            ));
            None
        }
    }
}

/// The kind (modifiers dropped) and the chunk size's text.
fn args(c: &Clause) -> (String, Option<String>) {
    let args: Vec<String> = c
        .positional_args()
        .map(|e| e.text.trim().to_string())
        .filter(|t| !matches!(t.as_str(), "monotonic" | "nonmonotonic" | "simd"))
        .collect();
    (
        args.first().cloned().unwrap_or_default(),
        args.get(1).cloned(),
    )
}

/// The plan's line for the chunk.
pub fn describe(d: &Directive, chunk: &Option<Chunk>) -> Option<String> {
    let c = d.clause("schedule").or(d.clause("dist_schedule"))?;
    let (kind, _) = args(c);
    Some(match chunk {
        None => format!("{}({kind}): the SPMD loop as it is (the implementation's choice)", c.name),
        Some(Chunk::Even) => format!(
            "{}({kind}): one contiguous chunk per worker (trip count over the workers, rounded up)",
            c.name
        ),
        Some(Chunk::Size(n)) if kind == "static" => format!(
            "{}(static, {n}): chunks of {n} consecutive iterations, round-robin over the workers",
            c.name
        ),
        Some(Chunk::Teams(n)) => format!(
            "{}(static, {n}): chunks of {n} consecutive iterations round-robin over the teams; each team's threads split its chunk",
            c.name
        ),
        Some(Chunk::Size(n)) => format!(
            "{}({kind}): mapped to static chunks of {n} round-robin over the workers (an assignment {kind} allows; no atomic counter, no load balancing)",
            c.name
        ),
    })
}
