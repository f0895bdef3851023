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
use crate::ir::{ArrayReduction, Region, Schedule, Size};
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
    let checked = last_checks(cx, rc, &mut all);
    let (d, kind, block, at, teams, file) = (rc.d, rc.kind, rc.block, rc.at, rc.teams, cx.file);
    let Decided {
        rv,
        reds,
        parts,
        launch,
        frame,
    } = all;
    let RegionVars {
        used,
        region_calls,
        vars,
        hoisted,
        ..
    } = rv;
    let ConstructReds {
        team: team_reds,
        loop_gang_names,
        ..
    } = reds;
    let NestedParts {
        forks,
        master_loops,
        inner_loops,
        stripped,
        barriers,
        construct_red_uses,
    } = parts;
    let Launch {
        blocks,
        team_limit,
        block_threads,
        runtime_limit,
        reaches_orphans,
        mut notes,
    } = launch;
    let Frame { staged, st } = frame;
    let Checked {
        team_array_reds,
        locals,
        calls,
        construct_arrays,
    } = checked;
    if cx.diags.iter().filter(|x| x.is_error()).count() > errors_before {
        return None;
    }
    let (function, function_start) = at
        .function
        .clone()
        .map(|(n, s)| (n, s.start))
        .unwrap_or_default();
    let body_names: BTreeSet<String> = used.iter().map(|u| u.name.clone()).collect();
    let global_bytes = st.global.bytes.div_ceil(16) * 16;
    if (!forks.is_empty() || reaches_orphans) && !kind_is_parallel(kind) {
        let over = match &runtime_limit {
            Some(_) => "the block's threads".to_string(),
            None => format!("{block_threads} threads"),
        };
        notes.push(format!(
            "fork/join: named barriers 1 and 2 over {over}; region id and team size in one shared word"
        ));
    }
    // The plan's launch line: a runtime team is rounded up to whole warps.
    let threads_x = match &runtime_limit {
        Some(l) => Size::Clause {
            clause: "whole_warps".into(),
            expr: l.describe(),
            span: d.span,
        },
        None => Size::Fixed(block_threads),
    };
    let g = Generic {
        kind,
        block,
        team_limit,
        block_threads,
        runtime_limit,
        reaches_orphans,
        orphan_cases: vec![],
        forks,
        master_loops,
        inner_loops,
        stripped,
        barriers,
        calls,
        staged,
        locals,
        shared_bytes: st.shared.bytes,
        shared_align: st.shared.align,
        global_bytes,
        budget,
        team_reds: team_reds.clone(),
        construct_red_uses,
        team_array_reds,
        loop_gang_reds: loop_gang_names,
        host_edits: vec![],
    };
    let array_privates = crate::lower::privarray::generic_copies(&vars, kind, &blocks, cx.diags);
    let red_maps: Vec<_> = team_reds
        .iter()
        .map(|x| crate::lower::target_parallel_red::result_map(&vars, &x.name))
        .collect();
    Some(Region {
        model: d.model,
        construct: d.name.clone(),
        // A `target` whose block is a `teams` construct names both pragmas.
        pragma_text: match teams {
            Some(t) => format!(
                "{} {}",
                crate::lower::build::pragma_one_line(file.slice(d.span)),
                crate::lower::build::pragma_one_line(file.slice(t.directive.span))
            ),
            None => crate::lower::build::pragma_one_line(file.slice(d.span)),
        },
        pragma: d.span,
        stmt: block,
        function,
        function_start,
        line: file.origin(d.span.start).1,
        kernel,
        schedule: Schedule::Sequential,
        levels: vec![],
        blocks,
        max_blocks: 65535,
        threads_x,
        threads_y: Size::Fixed(1),
        nest: vec![],
        nest_types: vec![],
        body: block,
        body_names,
        calls: region_calls,
        vars,
        reductions: team_reds
            .iter()
            .enumerate()
            .map(|(rid, x)| crate::ir::Reduction {
                var: x.name.clone(),
                ty: x.ty.clone(),
                arith: x.arith,
                op: x.op,
                map: red_maps[rid],
                rid: rid as u32,
                span: x.span,
            })
            .collect(),
        array_reductions: construct_arrays,
        array_privates,
        local_types: hoisted,
        red: Default::default(),
        if_cond: None,
        notes,
        generic: Some(Box::new(g)),
        lastprivate_assigns: vec![],
        atomics: vec![],
        in_order: vec![],
        tile: vec![],
    })
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
    if kind == GenKind::OmpParallel {
        for v in vars {
            if v.attr == Attr::Firstprivate && written.contains(&v.sym.name) {
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
