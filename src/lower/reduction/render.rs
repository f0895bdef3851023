//! `--emit=reductions`: the abstract form of every region, in the layout of
//! seed 001's examples, followed by what each builtin expands to. It is what
//! a user reads to see why their reduction became the CUDA it became.

use crate::ir::reduction::{Exp, Gang, Holders, RedForm, Step};
use crate::ir::{Level, Region, Size};
use crate::source::SourceFile;
use std::fmt::Write;

fn size(s: &Size) -> String {
    match s {
        Size::Fixed(v) => v.to_string(),
        Size::Clause { clause, expr, .. } => format!("{clause}({expr})"),
        Size::FromTrip => "from the trip count".into(),
    }
}

/// Where each level runs, for the header.
fn levels_line(r: &Region) -> String {
    let cap = if r.blocks == Size::FromTrip {
        format!(", at most {}", r.max_blocks)
    } else {
        String::new()
    };
    let mut parts = vec![format!(
        "GANG = CUDA block (blocks: {}{cap})",
        size(&r.blocks)
    )];
    let omp = r.model == crate::directives::Model::Omp;
    for l in &r.levels {
        match (l, omp) {
            (Level::Gang, _) => {}
            (Level::Worker, false) => parts.push(format!(
                "WORKER = threadIdx.y ({} workers)",
                size(&r.threads_y)
            )),
            (Level::Vector, false) => parts.push(format!(
                "VECTOR = threadIdx.x ({} lanes)",
                size(&r.threads_x)
            )),
            (Level::Worker, true) if r.levels.contains(&Level::Vector) => parts.push(format!(
                "WORKER = the warps of the block's {} threads (parallel for)",
                size(&r.threads_x)
            )),
            (Level::Worker, true) => parts.push(format!(
                "WORKER = each of the block's {} threads (parallel for)",
                size(&r.threads_x)
            )),
            (Level::Vector, true) => parts.push("VECTOR = the 32 lanes of a warp (simd)".into()),
        }
    }
    parts.join("; ")
}

fn holders(h: Holders) -> String {
    match h {
        Holders::All => "every thread".into(),
        Holders::Stride(32) => "lane 0 of each warp".into(),
        Holders::Stride(n) => format!("every thread whose linear id is a multiple of {n}"),
        Holders::Pieces => "the first lane of each warp's piece of each vector".into(),
    }
}

fn tree_offsets(first: u32, last: u32) -> String {
    let mut v = Vec::new();
    let mut o = first;
    while o >= last && o > 0 {
        v.push(o.to_string());
        o /= 2;
    }
    v.join(", ")
}

/// What `e` expands to, in words.
pub fn describe(e: Exp, f: &RedForm, r: &Region) -> String {
    let one_pass = if r.reductions.len() > 1 {
        format!(
            "; the {} reductions go through it in one pass (one shuffle each per step)",
            r.reductions.len()
        )
    } else {
        String::new()
    };
    match e {
        Exp::Local(why) | Exp::NoLock(why) => why.to_string(),
        Exp::HostSetup => {
            let extra = match f.gang {
                Gang::Partials => "; per-block partials of the reduction data and an arrival counter",
                Gang::Lock => "; the program's global lock word",
                Gang::Atomic | Gang::Single => "",
            };
            format!("host, before the launch: RES_PTR = the device copy of each RESULT (map tofrom){extra}")
        }
        Exp::HostTeardown => {
            "host, after the launch: the device copy goes back into the RESULT (unmap)".into()
        }
        Exp::Declare => {
            let inits: Vec<String> = r
                .reductions
                .iter()
                .map(|x| format!("{} = {}", x.var, x.op.identity_text(x.arith)))
                .collect();
            if r.generic.is_some() {
                format!(
                    "V = init_val(OP): each team's private copy ({}), held by the team's initial thread (in the team's frame when a parallel region uses it)",
                    inits.join(", ")
                )
            } else {
                format!(
                    "V = init_val(OP) in every thread: the private LOCAL objects ({})",
                    inits.join(", ")
                )
            }
        }
        Exp::VectorTree { width, complete } => {
            let w = if width < 32 {
                format!(" with width {width} (segments of {width} lanes with their own lane 0)")
            } else {
                String::new()
            };
            let end = if complete {
                "the vector's value ends in its lane 0"
            } else {
                "each warp of a vector ends with its piece in lane 0; RED_FINI (WORKER) finishes the vector"
            };
            format!(
                "shuffle tree: __shfl_down_sync offsets {}{w}, member mask = the warp's existing lanes; a partial last warp uses the contiguous algorithm (seed 000); {end}{one_pass}",
                tree_offsets(width / 2, 1)
            )
        }
        Exp::VectorPieces => format!(
            "a vector's {} lanes may straddle warps: each warp's piece of each vector (a contiguous lane range) is reduced into its first lane by a contiguous shuffle tree relative to the piece's start (offsets 16, 8, 4, 2, 1); RED_FINI (WORKER) combines the pieces{one_pass}",
            f.vector_lanes.as_ref().map(size).unwrap_or_default()
        ),
        Exp::BlockTree(h) => {
            let warp = match h {
                Holders::All => "a contiguous shuffle tree in each warp (offsets 16, 8, 4, 2, 1; lanes whose partner is past a partial warp keep their value)".to_string(),
                Holders::Stride(32) => "lane 0 of each warp already holds the warp's value".to_string(),
                Holders::Stride(n) => format!(
                    "the tree continues over lanes 0, {n}, {}, ... of each warp (offsets {})",
                    2 * n,
                    tree_offsets(16, n)
                ),
                Holders::Pieces => "the piece holders of a warp are an arbitrary lane set: the dispersed algorithm (seed 000) over their __ballot_sync mask, pairing each even-ranked holder with the next holder above it".to_string(),
            };
            format!(
                "seed 000's block reduction: {warp}; warp masters copy to `__shared__` slots (one per warp), named barrier 1 counting the block's threads (p2c_bar_sync), warp 0 reduces the slots with the contiguous tree; the block's value ends in thread 0{one_pass}"
            )
        }
        Exp::BufferStore => "thread 0 stores LOCAL into the `__shared__` buffer slot (LID, RID) and clears the shared lock".into(),
        Exp::BufferCombine => "buffer(LID, RID) = OP(buffer(LID, RID), LOCAL)".into(),
        Exp::BufferLoad => "V = buffer(LID, RID) in every thread".into(),
        Exp::SharedLock(h) => format!(
            "{} take the `__shared__` spin lock in turn (atomicCAS 0 -> 1, then __threadfence_block)",
            holders(h)
        ),
        Exp::SharedUnlock => "__threadfence_block, then the lock is released (atomicExch to 0)".into(),
        Exp::Barrier => "named barrier 1 over the block's threads (p2c_bar_sync)".into(),
        Exp::LastBlock { one_thread } => format!(
            "thread 0 stores the block's reduction data into partials[blockIdx.x], __threadfence, atomicInc on the arrival counter (it wraps back to 0 for the next launch); the last block to arrive reads every partial in block order, {} and folds the result into *RES_PTR: no atomics on the data, a result independent of block scheduling",
            if one_thread {
                "combining them in its single thread (blocks of one thread: no block tree, no barrier)"
            } else {
                "reduces them with the block tree"
            }
        ),
        Exp::GlobalLock => "thread 0 takes the global spin lock (atomicCAS 0 -> 1 on the program's lock word, then __threadfence)".into(),
        Exp::LockedUpdate => "V = OP(*RES_PTR, LOCAL); *RES_PTR = V (volatile accesses)".into(),
        Exp::GlobalUnlock => "__threadfence, then atomicExch(lock, 0)".into(),
        Exp::OneGang => "thread 0 of the launch's only block: V = OP(*RES_PTR, LOCAL); *RES_PTR = V".into(),
        Exp::Atomics => {
            let ops: Vec<String> = r
                .reductions
                .iter()
                .map(|x| {
                    if x.arith.is_complex() {
                        format!(
                            "{f} {v}.re (rid {}), {f} {v}.im (rid {})",
                            x.rid << 1,
                            (x.rid << 1) | 1,
                            f = x.op.atomic_fn(),
                            v = x.var
                        )
                    } else {
                        format!("{} {}", x.op.atomic_fn(), x.var)
                    }
                })
                .collect();
            format!("thread 0 combines LOCAL into *RES_PTR with a native atomic: {}", ops.join(", "))
        }
    }
}

fn loop_text(r: &Region) -> String {
    if r.generic.is_some() {
        return "{ the structured block }".into();
    }
    let mut s = String::new();
    for l in &r.nest {
        let step = if l.test.increasing() { "+=" } else { "-=" };
        let _ = write!(
            s,
            "for ({v} = {}; {v} {} {}; {v} {step} {}) ",
            l.lb,
            l.written_test,
            l.ub,
            l.step,
            v = l.var
        );
    }
    s.push_str("{ ... }");
    s
}

fn builtin_args(r: &Region, res_ptr: bool, level: Level, lid: u32) -> Vec<(String, String)> {
    r.reductions
        .iter()
        .map(|x| {
            let res = if res_ptr {
                format!("&{}", x.var)
            } else {
                "NULL".into()
            };
            (
                x.var.clone(),
                format!(
                    "{res}, {}, {}, {}, {lid}, {}",
                    x.var,
                    level.as_str(),
                    x.op.as_str(),
                    x.rid
                ),
            )
        })
        .collect()
}

/// The form of one region.
pub fn render_region(file: &SourceFile, r: &Region, o: &mut String) {
    let f = &r.red;
    let (l, c) = file.line_col(r.pragma.start);
    let _ = writeln!(
        o,
        "region {} at {}:{}:{} in {}()",
        r.kernel, file.name, l, c, r.function
    );
    let _ = writeln!(o, "  directive:  {} {}", r.model.as_str(), r.construct);
    let any = team_lines(file, r, o);
    if f.is_empty() && r.array_reductions.is_empty() {
        if !any {
            let _ = writeln!(o, "  no reductions");
        }
        o.push('\n');
        return;
    }
    let _ = writeln!(o, "  levels:     {}", levels_line(r));
    let _ = writeln!(o, "  strategy:   {}", f.strategy.as_str());
    if !f.is_empty() {
        render_scalars(r, o);
    }
    render_arrays(r, o);
}

/// Generic mode: the reductions over the threads of one team, outside the
/// abstract form (see `lower::generic`). Whether there is one.
fn team_lines(file: &SourceFile, r: &Region, o: &mut String) -> bool {
    let mut any = false;
    if let Some(g) = &r.generic {
        let sites = g
            .forks
            .iter()
            .filter(|x| !x.reductions.is_empty())
            .map(|x| (x.pragma, x.construct.as_str(), &x.reductions, true))
            .chain(
                g.inner_loops
                    .iter()
                    .filter(|(_, w)| !w.reductions.is_empty())
                    .map(|(_, w)| (w.pragma, w.construct.as_str(), &w.reductions, w.red_at_join)),
            );
        for (lid, (pragma, construct, reds, at_join)) in (first_team_lid(r)..).zip(sites) {
            any = true;
            let _ = writeln!(
                    o,
                    "  team:       line {}: {}: each thread's private copy starts at the identity; warp trees over the team's lanes, one value per warp in shared memory; thread 0 combines them into the variable {}",
                    file.line_of(pragma.start),
                    crate::ir::generic::red_list(reds),
                    if at_join {
                        "after named barrier 4, before the join"
                    } else {
                        "between two team barriers"
                    }
                );
            team_form(file, pragma, construct, reds, lid, o);
        }
        any |= super::array_generic::render(file, g, o);
    }
    any
}

/// The first loop id of the team sites: after the loops of the region's
/// own form (lid 0 is the compute construct's NULL loop when it reduces).
fn first_team_lid(r: &Region) -> u32 {
    r.red
        .loops
        .iter()
        .map(|l| l.lid + 1)
        .max()
        .unwrap_or(0)
        .max(1)
}

/// The levels a team site's construct partitions over, innermost first
/// (seed 001: a vector reduction is finished before the worker one; OpenMP
/// threads are workers and simd lanes vectors, see ARCHITECTURE.md).
fn team_levels(construct: &str) -> Vec<&'static str> {
    let words: Vec<&str> = construct.split_whitespace().collect();
    let has = |w: &str| words.contains(&w);
    if has("acc") && !has("worker") && !has("vector") {
        // `acc loop` with no level inside a gang: the levels below gang.
        return vec!["VECTOR", "WORKER"];
    }
    let mut levels = Vec::new();
    if has("vector") || has("simd") {
        levels.push("VECTOR");
    }
    if has("worker") || (has("omp") && !(has("simd") && words.len() == 2)) {
        levels.push("WORKER");
    }
    levels
}

/// A team site in seed 001's abstract form: the variables are private to
/// the gang (or the team's frame), not copy objects, so RES_PTR is NULL and
/// RED_FINI folds into the variable itself.
fn team_form(
    file: &SourceFile,
    pragma: crate::source::Span,
    construct: &str,
    reds: &[crate::ir::generic::GenRed],
    lid: u32,
    o: &mut String,
) {
    let levels = team_levels(construct);
    let _ = writeln!(
        o,
        "    // line {}: `{construct}` over the threads of one team, lid {lid}, {}",
        file.line_of(pragma.start),
        levels.join(" then ")
    );
    let each = |o: &mut String, builtin: &str, level: &str| {
        for (rid, x) in reds.iter().enumerate() {
            let _ = writeln!(
                o,
                "    {v} = {builtin} (NULL, {v}, {level}, {op}, {lid}, {rid})",
                v = x.name,
                op = x.op.as_str()
            );
        }
    };
    for level in &levels {
        each(o, "RED_SETUP", level);
        each(o, "RED_INIT", level);
    }
    let _ = writeln!(
        o,
        "    {{ the loop of line {} }}",
        file.line_of(pragma.start)
    );
    for level in &levels {
        let _ = writeln!(o, "    RED_LOCK ({level}, {lid})");
        each(o, "RED_FINI", level);
        let _ = writeln!(o, "    RED_UNLOCK ({level}, {lid})");
        each(o, "RED_TEARDOWN", level);
    }
}

/// The array and array-section reductions of a region: one RID covers the
/// whole section; every element is an independent reduction of OP.
fn render_arrays(r: &Region, o: &mut String) {
    let lid = 0;
    for a in &r.array_reductions {
        let _ = writeln!(
            o,
            "  reduction:  rid {} {} {} : {} elements of {} ({}), lo = {}, len = {}",
            a.rid,
            a.op.as_str(),
            a.text,
            a.len,
            crate::sema::CType {
                base: a.ty.unqualified_base(),
                derivs: vec![]
            }
            .type_name(),
            a.arith.describe(),
            a.lo,
            a.len
        );
        let _ = writeln!(
            o,
            "  objects:    RESULT = the section {} of the copy object (RES_PTR = &{}[{}] in its device copy, mapped tofrom); LOCAL = each thread's private copy of the section, an array of len elements",
            a.text, a.var, a.lo
        );
        let _ = writeln!(
            o,
            "  note:       an array reduction is one RID covering the section: element k of LOCAL is an independent reduction of `{}` into RES_PTR[k]; it has its own scheme, the same under every --reduction-strategy and at every level (every thread of every block holds a private copy, so worker and vector need no builtins of their own)\n",
            a.op.as_str()
        );
        if r.generic.is_some() {
            let _ = writeln!(
                o,
                "  note:       generic mode (the NULL outermost gang loop): thread 0's LOCAL is the team's copy, which `{}` names for the sequential part and the loops over the teams; the other threads' stay at the identity\n",
                a.var
            );
        }
        let args = format!(
            "&{}[{}], LOCAL[0:{}], GANG, {}, {lid}, {}",
            a.var,
            a.lo,
            a.len,
            a.op.as_str(),
            a.rid
        );
        let _ = writeln!(o, "  // {}: the gang reduction (lid {lid}); no worker or vector builtins: every thread's LOCAL is private", a.text);
        let _ = writeln!(o, "  {} = RED_SETUP ({args})", a.var);
        let _ = writeln!(o, "  {} = RED_INIT ({args})", a.var);
        let _ = writeln!(o, "  {}", loop_text(r));
        let _ = writeln!(o, "  RED_LOCK (GANG, {lid})");
        let _ = writeln!(o, "  {} = RED_FINI ({args})", a.var);
        let _ = writeln!(o, "  RED_UNLOCK (GANG, {lid})");
        let _ = writeln!(o, "  {} = RED_TEARDOWN ({args})", a.var);
        o.push('\n');
        let _ = writeln!(o, "  expansion:");
        let cap = if r.blocks == Size::FromTrip {
            "; the launch gets no more blocks than keep the copies within 256 MiB"
        } else {
            ""
        };
        let rows = [
            ("RED_SETUP (GANG, 0)".to_string(), format!("host, before the launch: map {} tofrom (RES_PTR = its device copy); private copies of the section for every thread of every block in global memory (blocks x threads x len elements){cap}, and an arrival counter", a.text)),
            ("RED_INIT (GANG, 0)".to_string(), format!("every thread: LOCAL[k] = init_val({}) = {} for k in 0..len; `{}` names LOCAL in the loop body (LOCAL - lo, so the body's subscripts are unchanged)", a.op.as_str(), a.op.identity_text(a.arith), a.var)),
            ("RED_LOCK (GANG, 0)".to_string(), "no lock: each block writes its own copy; the last block to arrive combines them".to_string()),
            ("RED_FINI (GANG, 0)".to_string(), format!("each block combines its threads' copies element by element in thread order into its thread 0's copy (elements spread over the block's threads, named barrier 1 before and after); the last block to arrive (atomicInc after __threadfence) folds the blocks' copies in block order: RES_PTR[k] = {}(RES_PTR[k], copy_0[k], copy_1[k], ...); no atomics on the data, any number of blocks, a result that does not depend on scheduling", a.op.as_str())),
            ("RED_UNLOCK (GANG, 0)".to_string(), "no lock".to_string()),
            ("RED_TEARDOWN (GANG, 0)".to_string(), format!("host, after the launch: unmap {} (the device copy goes back into the RESULT)", a.text)),
        ];
        for (name, what) in rows {
            let _ = writeln!(o, "    {name:<26} {what}");
        }
        let _ = writeln!(
            o,
            "    {:<26} {}",
            "host fallback",
            if r.if_cond.is_some() {
                "when the if clause is false the loop runs on the host and updates the section in place"
            } else {
                "none (no if clause)"
            }
        );
        o.push('\n');
    }
}

/// The scalar reductions of a region (the form of seed 001).
fn render_scalars(r: &Region, o: &mut String) {
    let f = &r.red;
    for x in &r.reductions {
        let _ = writeln!(
            o,
            "  reduction:  rid {} {} {} : {} ({})",
            x.rid,
            x.op.as_str(),
            x.var,
            x.ty.type_name(),
            x.arith.describe()
        );
    }
    // Seed 001 ("Templated Builtins"): a complex object is two instances of
    // the underlying type; where the transfers need ids, every RID is
    // shifted left and bit 0 tells the parts apart.
    if r.reductions.iter().any(|x| x.arith.is_complex()) {
        for x in &r.reductions {
            let rid = x.rid;
            if x.arith.is_complex() {
                let _ = writeln!(
                    o,
                    "  parts:      rid {rid} {v} = {p} {v}.re, transfer rid {} ((rid << 1) | 0), and {p} {v}.im, transfer rid {} ((rid << 1) | 1): shuffles, shared slots, partials and locked updates move the two parts; {op} combines the recombined complex values{atomic}",
                    rid << 1,
                    (rid << 1) | 1,
                    v = x.var,
                    p = x.arith.part_name(),
                    op = x.op.as_str(),
                    atomic = if x.arith.is_complex() && x.op.has_atomic(x.arith) {
                        " (a native atomic adds each part)"
                    } else {
                        " (no native atomic)"
                    }
                );
            } else {
                let _ = writeln!(
                    o,
                    "  parts:      rid {rid} {v}, transfer rid {} (rid << 1)",
                    rid << 1,
                    v = x.var
                );
            }
        }
    }
    let vars: Vec<&str> = r.reductions.iter().map(|x| x.var.as_str()).collect();
    let _ = writeln!(
        o,
        "  objects:    RESULT = the copy object{s} {} (RES_PTR {} = {}); LOCAL = each thread's private copy",
        vars.join(" "),
        vars.iter().map(|v| format!("&{v}")).collect::<Vec<_>>().join(", "),
        if vars.len() > 1 { "their device copies" } else { "its device copy" },
        s = if vars.len() > 1 { "s" } else { "" },
    );
    for n in &f.notes {
        let _ = writeln!(o, "  note:       {n}");
    }
    o.push('\n');
    for s in &f.steps {
        match s {
            Step::Note(t) => {
                let _ = writeln!(o, "  // {t}");
            }
            Step::Red {
                builtin,
                level,
                lid,
                res_ptr,
                ..
            } => {
                for (v, args) in builtin_args(r, *res_ptr, *level, *lid) {
                    let _ = writeln!(o, "  {v} = {} ({args})", builtin.as_str());
                }
            }
            Step::Lock {
                level, lid, unlock, ..
            } => {
                let _ = writeln!(
                    o,
                    "  {} ({}, {lid})",
                    if *unlock { "RED_UNLOCK" } else { "RED_LOCK" },
                    level.as_str()
                );
            }
            Step::Fork { level, join, .. } => {
                let _ = writeln!(
                    o,
                    "  {} ({})",
                    if *join { "JOIN" } else { "FORK" },
                    level.as_str()
                );
            }
            Step::Body { .. } => {
                let _ = writeln!(o, "  {}", loop_text(r));
            }
        }
    }
    o.push('\n');
    let _ = writeln!(o, "  expansion:");
    for s in &f.steps {
        let (name, exp) = match s {
            Step::Red {
                builtin,
                level,
                lid,
                exp,
                ..
            } => (
                format!("{} ({}, {lid})", builtin.as_str(), level.as_str()),
                *exp,
            ),
            Step::Lock {
                level,
                lid,
                unlock,
                exp,
            } => (
                format!(
                    "{} ({}, {lid})",
                    if *unlock { "RED_UNLOCK" } else { "RED_LOCK" },
                    level.as_str()
                ),
                *exp,
            ),
            Step::Fork { level, join, exp } => (
                format!(
                    "{} ({})",
                    if *join { "JOIN" } else { "FORK" },
                    level.as_str()
                ),
                *exp,
            ),
            _ => continue,
        };
        let _ = writeln!(o, "    {name:<26} {}", describe(exp, f, r));
    }
    let _ = writeln!(
        o,
        "    {:<26} {}",
        "host fallback",
        if r.if_cond.is_some() {
            "when the if clause is false the loop runs on the host: RED_SETUP V = RES_PTR ? *RES_PTR : LOCAL, RED_INIT and RED_FINI V = LOCAL, RED_TEARDOWN *RES_PTR = LOCAL, locks nothing (seed 001's host expansion: the loop updates the variables in place)"
        } else {
            "none (no if clause): seed 001's host expansion (V = LOCAL, the loop updates the variables in place) is what gcc's host build of the same file does"
        }
    );
    o.push('\n');
}

/// `--emit=reductions` for a file.
pub fn render(file: &SourceFile, regions: &[Region]) -> String {
    let mut o = String::new();
    for r in regions {
        render_region(file, r, &mut o);
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_halving_powers_of_two() {
        assert_eq!(tree_offsets(16, 1), "16, 8, 4, 2, 1");
        assert_eq!(tree_offsets(16, 8), "16, 8");
        assert_eq!(tree_offsets(4, 1), "4, 2, 1");
        assert_eq!(tree_offsets(0, 1), "");
    }

    #[test]
    fn builtins_are_named_as_in_the_seed() {
        assert_eq!(super::super::Builtin::Setup.as_str(), "RED_SETUP");
        assert_eq!(super::super::Builtin::Teardown.as_str(), "RED_TEARDOWN");
    }
}
