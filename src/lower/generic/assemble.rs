//! Phase 9: the last checks and the region. Array reductions of forks are
//! checked against the frame, each fork gets its sharing report, the
//! sequential part's register locals and runtime queries are found; then,
//! when no phase reported an error, the `Generic` plan and its `Region`.

use super::construct::Construct;
use super::construct_reductions::ConstructReds;
use super::fork_scope::fork_scope;
use super::frame::Frame;
use super::launch::Launch;
use super::nested_constructs::NestedParts;
use super::region_vars::RegionVars;
use super::syntax::{collect_locals, runtime_calls};
use super::{kind_is_parallel, model_of, not_supported, Ctx};
use crate::ir::generic::{GenKind, Generic, Local, RtCall, ScopeVar};
use crate::ir::reduction::TeamArrayRed;
use crate::ir::{ArrayReduction, Reduction, Region, Schedule, Size};
use crate::lower::reduction::array_generic;
use crate::sema::sharing::Attr;
use crate::source::Span;
use std::collections::BTreeSet;

/// What the phases before decided, for the last one.
pub(super) struct Decided {
    pub rv: RegionVars,
    pub reds: ConstructReds,
    pub parts: NestedParts,
    pub launch: Launch,
    pub frame: Frame,
}

/// What the last checks add to the plan.
struct Checked {
    team_array_reds: Vec<TeamArrayRed>,
    locals: Vec<Local>,
    calls: Vec<(Span, RtCall, bool)>,
    construct_arrays: Vec<ArrayReduction>,
}

/// The last checks, then the region (`None` when any phase reported an
/// error since `errors_before`).
pub(super) fn region(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    mut all: Decided,
    kernel: String,
    budget: u64,
    errors_before: usize,
) -> Option<Region> {
    let mut checked = last_checks(cx, rc, &mut all);
    if cx.diags.iter().filter(|x| x.is_error()).count() > errors_before {
        return None;
    }
    let (d, kind, block, at, file) = (rc.d, rc.kind, rc.block, rc.at, cx.file);
    let Decided {
        rv,
        reds,
        parts,
        mut launch,
        frame,
    } = all;
    let RegionVars {
        used,
        region_calls,
        vars,
        hoisted,
        ..
    } = rv;
    let (function, function_start) = at
        .function
        .clone()
        .map(|(n, s)| (n, s.start))
        .unwrap_or_default();
    let body_names: BTreeSet<String> = used.iter().map(|u| u.name.clone()).collect();
    let mut notes = std::mem::take(&mut launch.notes);
    if (!parts.forks.is_empty() || launch.reaches_orphans) && !kind_is_parallel(kind) {
        let over = match &launch.runtime_limit {
            Some(_) => "the block's threads".to_string(),
            None => format!("{} threads", launch.block_threads),
        };
        notes.push(format!(
            "fork/join: named barriers 1 and 2 over {over}; region id and team size in one shared word"
        ));
    }
    // The plan's launch line: a runtime team is rounded up to whole warps.
    let threads_x = match &launch.runtime_limit {
        Some(l) => Size::Clause {
            clause: "whole_warps".into(),
            expr: l.describe(),
            span: d.span,
        },
        None => Size::Fixed(launch.block_threads),
    };
    let blocks = launch.blocks.clone();
    let reductions = team_reductions(&reds, &vars);
    let construct_arrays = std::mem::take(&mut checked.construct_arrays);
    let g = generic_plan(rc, budget, reds, parts, launch, frame, checked);
    let array_privates = crate::lower::privarray::generic_copies(&vars, kind, &blocks, cx.diags);
    Some(Region {
        model: d.model,
        construct: d.name.clone(),
        pragma_text: pragma_text(rc, file),
        pragma: d.span,
        stmt: block,
        function,
        function_start,
        line: file.origin(d.span.start).1,
        kernel,
        schedule: Schedule::Sequential,
        chunk: None,
        levels: vec![],
        blocks,
        max_blocks: 65535,
        threads_x,
        threads_y: Size::Fixed(1),
        nest: vec![],
        nest_types: vec![],
        narrow_counter: false,
        body: block,
        body_names,
        calls: region_calls,
        vars,
        reductions,
        array_reductions: construct_arrays,
        array_privates,
        local_types: hoisted,
        red: Default::default(),
        if_cond: None,
        device_check: None,
        notes,
        generic: Some(Box::new(g)),
        lastprivate_assigns: vec![],
        linear: vec![],
        atomics: vec![],
        in_order: vec![],
        task_wait: crate::lower::asynchrony::omp_task_wait(d, &file.text, cx.diags),
        omp_task: crate::lower::asynchrony::omp_target_task(d, &file.text),
        reduction_task: None,
        acc_queue: crate::lower::asynchrony::acc_queue(d),
        tile: vec![],
    })
}

/// The region's pragma, one line; a `target` whose block is a `teams`
/// construct names both pragmas.
fn pragma_text(rc: &Construct<'_>, file: &crate::source::SourceFile) -> String {
    let one_line = |s: Span| crate::source::pragma_text::pragma_one_line(file.slice(s));
    match rc.teams {
        Some(t) => format!("{} {}", one_line(rc.d.span), one_line(t.directive.span)),
        None => one_line(rc.d.span),
    }
}

/// The reductions of the compute construct, numbered in order, with the
/// map of each result.
fn team_reductions(reds: &ConstructReds, vars: &[crate::sema::sharing::VarAttr]) -> Vec<Reduction> {
    reds.team
        .iter()
        .enumerate()
        .map(|(rid, x)| Reduction {
            var: x.name.clone(),
            ty: x.ty.clone(),
            arith: x.arith,
            op: x.op,
            map: crate::lower::target_parallel_red::result_map(vars, &x.name),
            rid: rid as u32,
            span: x.span,
        })
        .collect()
}

/// The generic-mode plan from what the phases decided.
fn generic_plan(
    rc: &Construct<'_>,
    budget: u64,
    reds: ConstructReds,
    parts: NestedParts,
    launch: Launch,
    frame: Frame,
    checked: Checked,
) -> Generic {
    let NestedParts {
        forks,
        master_loops,
        inner_loops,
        stripped,
        in_order_privates,
        barriers,
        serials,
        construct_red_uses,
    } = parts;
    let Frame { staged, st } = frame;
    Generic {
        kind: rc.kind,
        block: rc.block,
        team_limit: launch.team_limit,
        block_threads: launch.block_threads,
        runtime_limit: launch.runtime_limit,
        reaches_orphans: launch.reaches_orphans,
        orphan_cases: vec![],
        forks,
        master_loops,
        inner_loops,
        stripped,
        in_order_privates,
        barriers,
        serials,
        calls: checked.calls,
        staged,
        locals: checked.locals,
        shared_bytes: st.shared.bytes,
        shared_align: st.shared.align,
        global_bytes: st.global.bytes.div_ceil(16) * 16,
        budget,
        team_reds: reds.team,
        construct_red_uses,
        team_array_reds: checked.team_array_reds,
        loop_gang_reds: reds.loop_gang_names,
        host_edits: vec![],
    }
}

/// Checks that need the frame, and what the emitter needs besides it.
fn last_checks(cx: &mut Ctx<'_>, rc: &Construct<'_>, all: &mut Decided) -> Checked {
    let (kind, stmt, text, tree) = (rc.kind, rc.stmt, rc.text, cx.tree);
    let (vars, written, locals) = (&all.rv.vars, &all.rv.written, &all.rv.locals);
    let (team_reds, team_arrays) = (&all.reds.team, &all.reds.team_arrays);
    let staged = &all.frame.staged;
    let one_team = matches!(all.launch.blocks, Size::Fixed(1));
    let NestedParts {
        forks,
        master_loops,
        inner_loops,
        in_order_privates,
        ..
    } = &mut all.parts;
    let team_array_reds = array_generic::check(
        std::mem::take(&mut cx.array_reds),
        forks,
        inner_loops,
        staged,
        vars,
        one_team,
        team_arrays,
        cx.diags,
    );
    // The host sizes the copies' area: bounds it can evaluate at the launch.
    let team_array_reds = crate::lower::reduction::array_team_area::host_sized(
        team_array_reds,
        locals,
        written,
        cx.diags,
    );
    let scopes: Vec<Vec<ScopeVar>> = forks
        .iter()
        .map(|f| {
            fork_scope(
                tree,
                text,
                model_of(kind),
                kind,
                f,
                inner_loops,
                staged,
                vars,
            )
        })
        .collect();
    for (f, v) in forks.iter_mut().zip(scopes) {
        f.vars = v;
    }
    crate::lower::privarray::master_privates_in_forks(master_loops, forks, text, cx.diags);
    crate::lower::privarray::in_order_privates_in_forks(in_order_privates, forks, text, cx.diags);
    if kind == GenKind::OmpParallel {
        for v in vars {
            if v.attr == Attr::Firstprivate
                && written.contains(&v.sym.name)
                && super::privatized_writes::writes_shared(stmt, text, &v.sym.name, &rc.nested)
            {
                cx.diags.push(not_supported(
                    v.span,
                    format!("`{}` is shared by the threads of `target parallel` and written in it; this is not supported yet", v.sym.name),
                ).with_help(format!("map it (`map(tofrom: {})`) or declare it inside the block", v.sym.name)));
            }
        }
    }
    // Locals of the sequential part that stay in the master's registers.
    let mut locals = Vec::new();
    collect_locals(stmt, text, forks, staged, &mut locals);

    // Runtime queries.
    let mut found = Vec::new();
    runtime_calls(stmt, text, &mut found);
    let calls = found
        .into_iter()
        .map(|(s, c)| {
            let in_fork = forks
                .iter()
                .any(|f| s.within(Span::new(f.pragma.start, f.stmt.end)));
            (s, c, in_fork)
        })
        .collect();

    let construct_arrays = array_generic::construct_arrays(vars, team_reds.len(), cx.diags);
    Checked {
        team_array_reds,
        locals,
        calls,
        construct_arrays,
    }
}
