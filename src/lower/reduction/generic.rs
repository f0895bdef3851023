//! The abstract form of a reduction on a compute construct with a
//! structured block (generic mode: `acc parallel` / `acc serial` /
//! `omp target teams` with code between the directives).
//!
//! Seed 001's "reductions on parallel": the NULL outermost gang loop, lid 0,
//! whose body is the whole block (gang-redundant code). RED_SETUP and
//! RED_INIT come before the block: each team's private copy (the team's
//! initial thread's, staged in the team's frame when a parallel region uses
//! it) starts at init_val(OP). A gang loop inside the block that reduces the
//! same variable (`acc loop gang [vector] reduction`, `distribute [parallel
//! for] reduction`) gets no builtins of its own: a loop run by the teams'
//! masters updates the team's copy directly, and a loop spread over the
//! threads of the teams reduces over each team (the team trees of generic
//! mode) into the team's copy. RED_FINI at GANG runs at the end of the
//! kernel, when every thread of the block has left the block, with the
//! expansions of the SPMD kernels (per-block partials and the last block,
//! lock, atomics, or the fold of a launch of one gang).

use super::gang_level;
use crate::directives::Model;
use crate::ir::generic::red_list;
use crate::ir::generic::Generic;
use crate::ir::reduction::{Builtin, Exp, RedForm, RedLoop, Step};
use crate::ir::{Level, Region};

pub(super) fn build(r: &Region, g: &Generic, mut f: RedForm) -> RedForm {
    let lid = 0;
    let (g_lock, g_fini, g_unlock) = gang_level(r, &mut f, lid);
    let what = if r.model == Model::Omp {
        "the teams construct (teams = gang)"
    } else {
        "the compute construct"
    };
    let only_loops = g.team_reds.len() == g.loop_gang_reds.len();
    f.steps.push(Step::Note(format!(
        "{} of `{} {}` with a structured block: the NULL outermost loop, lid {lid}",
        if only_loops {
            "gang reductions of copy objects".to_string()
        } else {
            format!("reduction on {what}")
        },
        r.model.as_str(),
        r.construct
    )));
    if !g.loop_gang_reds.is_empty() {
        f.steps.push(Step::Note(format!(
            "{}: copied (tofrom) and named only by gang loops with a reduction clause on it: seed 001's gang reduction of a copy object, whose RED_FINI moves to the end of the construct (the block does not read it in between)",
            g.loop_gang_reds.join(", ")
        )));
    }
    f.loops.push(RedLoop {
        lid,
        null: true,
        levels: vec![Level::Gang],
    });
    let red = |builtin, exp| Step::Red {
        builtin,
        level: Level::Gang,
        lid,
        res_ptr: true,
        exp,
    };
    f.steps.push(red(Builtin::Setup, Exp::HostSetup));
    f.steps.push(red(Builtin::Init, Exp::Declare));
    for (line, names, implicit) in &g.construct_red_uses {
        let how = if *implicit {
            "updates them with no reduction clause: an implicit reduction with the construct's operator"
        } else {
            "reduces them"
        };
        f.steps.push(Step::Note(format!(
            "line {line}: a loop {how} ({}): no second RED_SETUP / RED_INIT / RED_FINI / RED_TEARDOWN; its threads combine into the team's copy",
            names.join(", ")
        )));
    }
    let team_sites: Vec<String> = g
        .forks
        .iter()
        .filter(|x| !x.reductions.is_empty())
        .map(|x| red_list(&x.reductions))
        .collect();
    if !team_sites.is_empty() {
        f.steps.push(Step::Note(format!(
            "reductions over the threads of one team ({}) fold into the team's copy at their join (the `team:` lines)",
            team_sites.join("; ")
        )));
    }
    f.steps.push(Step::Body { lid });
    f.steps.push(Step::Note(format!(
        "end of the construct: the NULL outermost loop, lid {lid}"
    )));
    f.steps.push(Step::Lock {
        level: Level::Gang,
        lid,
        unlock: false,
        exp: g_lock,
    });
    f.steps.push(red(Builtin::Fini, g_fini));
    f.steps.push(Step::Lock {
        level: Level::Gang,
        lid,
        unlock: true,
        exp: g_unlock,
    });
    f.steps.push(red(Builtin::Teardown, Exp::HostTeardown));
    f
}
