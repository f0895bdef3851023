//! Generic mode (seed 002): offloaded regions whose structured block holds
//! sequential code around nested parallel constructs.
//!
//! `omp target`, `omp target teams`, `omp target parallel` and OpenACC
//! `parallel` / `serial` with a structured block become one kernel per
//! region. Thread 0 of each block, the team's initial thread, runs the
//! sequential part (OpenACC: gang-redundant, worker-single, vector-single
//! code); at each nested parallel construct (a *fork*: `omp parallel [for]`,
//! `distribute parallel for`, `acc loop` with worker or vector) it publishes
//! the region id and team size in one shared word and meets the other
//! threads at named barrier 1; every thread runs the region selected by the
//! id (a switch, no device function pointers), and all meet again at named
//! barrier 2. The master is thread 0 rather than a thread of a reserved last
//! warp: it becomes OpenMP thread 0 of each parallel team as the encountering
//! thread should, no warp is idle, and every architecture nvcc 13 targets
//! (sm_75 and later) schedules the threads of a warp independently, so the
//! master may diverge from its warp's other lanes at a barrier.
//!
//! Variables of the sequential part that a fork uses are *staged*: they live
//! in the team's frame (see `staging`), in shared memory within the budget
//! and in a per-team frame in global memory beyond it; everything else stays
//! in registers. Loop constructs of the sequential part (`distribute`,
//! `acc loop gang`) spread their iterations over the teams' masters.

// The phases of `build_generic`, in the order they run.
// 1. The construct (`target` + `teams` merged), its clauses and block.
mod construct;
// 2. The variables of the region and their attributes.
mod loop_only_vars;
mod region_vars;
// 3. The reductions of the compute construct (across teams).
mod construct_reductions;
// 4. The nested directives: forks, loops, code run in order, barriers.
mod nested_constructs;
mod serial;
mod tasks;
// 5. Team barriers and where loop reductions combine.
mod team_barriers;
// 6. Teams, team size and threads per block.
mod launch;
// 7. What the forks share with the sequential part.
mod frame_wants;
// 8. The team's frame.
mod frame;
// 9. The last checks, then the `Generic` plan and its `Region`.
mod assemble;
// 1 and 10. The `if` clause: checked with the construct, given to the region.
mod host_if;

// What the phases ask.
mod fork_scope;
mod nested_clauses;
mod roles;
mod syntax;

// The other entry points.
mod plan_text;
mod privatized_writes;
mod spmd_merge;

pub use plan_text::{fork_threads, plan_lines};
pub use spmd_merge::spmd_merge;
pub use syntax::{assignments_to, declared_in, node_in, only_statement};

use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, Model};
use crate::front::{Attached, CTree};
use crate::ir::generic::GenKind;
use crate::ir::reduction::TeamArrayRed;
use crate::ir::{Region, Size};
use crate::sema::layout::Consts;
use crate::sema::sharing::{self};
use crate::source::{SourceFile, Span};
use construct::Construct;

/// Default shared-memory budget for a team's staged variables: 32 KiB of the
/// 48 KiB of static shared memory every architecture gives a block without
/// opting in, leaving 16 KiB for reduction scratch (32 partials per
/// reduction, worker-level buffers) and the program's own `__shared__` data.
pub const DEFAULT_SHARED_BUDGET: u64 = 32 * 1024;

/// Default team size when no clause gives one.
const DEFAULT_TEAM: u32 = 256;
/// Default team count for regions that spread loops over teams.
const DEFAULT_TEAMS: u32 = 64;

/// Whether a directive is lowered in generic mode (a compute construct with
/// a structured block rather than a loop).
pub fn handles(d: &Directive) -> bool {
    match d.model {
        Model::Omp => matches!(
            d.name.as_str(),
            "target" | "target teams" | "target parallel"
        ),
        Model::Acc => matches!(d.name.as_str(), "parallel" | "serial" | "kernels"),
    }
}

fn kind_of(d: &Directive) -> GenKind {
    match (d.model, d.name.as_str()) {
        (Model::Omp, "target teams") => GenKind::OmpTeams,
        (Model::Omp, "target parallel") => GenKind::OmpParallel,
        (Model::Omp, _) => GenKind::OmpTarget,
        (Model::Acc, "serial") => GenKind::AccSerial,
        (Model::Acc, _) => GenKind::AccParallel,
    }
}

fn not_supported(at: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(codes::NOT_SUPPORTED, at, msg).with_label("not lowered yet")
}

/// What every phase of `build_generic` reads and writes besides the
/// construct: the file and its tree, the file's constants, the
/// diagnostics, and the array reductions of nested constructs collected
/// along the way (checked once the frame is known).
struct Ctx<'a> {
    file: &'a SourceFile,
    tree: &'a CTree,
    consts: Consts,
    diags: &'a mut Vec<Diagnostic>,
    /// Array reductions of nested constructs (`reduction::array_generic`).
    array_reds: Vec<TeamArrayRed>,
}

/// Lowers a generic-mode region. `nested` are the directives inside it.
///
/// The phases run in this order because each reads what the ones before
/// decided (a nested reduction is lowered only when it is the construct's
/// own, the frame holds what the forks share, ...), and every phase reports
/// all it refuses before the region is given up.
#[allow(clippy::too_many_arguments)]
pub fn build_generic(
    file: &SourceFile,
    tree: &CTree,
    at: &Attached,
    nested: &[&Attached],
    kernel: String,
    budget: u64,
    env: &sharing::DataEnv,
    diags: &mut Vec<Diagnostic>,
) -> Option<Region> {
    let teams = construct::closely_nested_teams(tree, at, nested);
    let merged = teams.map(|t| construct::with_teams_clauses(&at.directive, t));
    let d = merged.as_ref().unwrap_or(&at.directive);
    let errors_before = diags.iter().filter(|x| x.is_error()).count();
    let mut cx = Ctx {
        file,
        tree,
        consts: crate::sema::visible::memo_for_text(&file.text, || Consts::from_text(&file.text)),
        diags,
        array_reds: Vec::new(),
    };
    let rc = Construct::new(&mut cx, at, d, teams, nested)?;
    let host_if = host_if::check(&mut cx, &rc);
    let mut rv = region_vars::decide(&mut cx, &rc, &kernel, env);
    let reds = construct_reductions::gather(&mut cx, &rc, &mut rv);
    let mut parts = nested_constructs::lower(&mut cx, &rc, &reds);
    loop_only_vars::privatize_in_forks(&mut cx, &rc, &rv, &mut parts);
    team_barriers::place(tree, rc.text, &mut parts);
    team_barriers::reductions_write(&parts, &mut rv.written);
    let launch = launch::shape(&mut cx, &rc, &parts, &rv.region_calls);
    let wants = frame_wants::collect(&mut cx, &rc, &rv, &reds, &mut parts);
    let frame = frame::stage(&mut cx, &rc, &rv, &reds, wants, &mut parts, budget);
    frame::check_reduction_targets(
        &mut cx,
        &parts.forks,
        &parts.inner_loops,
        &frame.staged,
        &rv.vars,
        matches!(launch.blocks, Size::Fixed(1)),
    );
    let all = assemble::Decided {
        rv,
        reds,
        parts,
        launch,
        frame,
    };
    let r = assemble::region(&mut cx, &rc, all, kernel, budget, errors_before)?;
    host_if::finish(&mut cx, host_if, r)
}

fn model_of(k: GenKind) -> Model {
    match k {
        GenKind::AccParallel | GenKind::AccSerial => Model::Acc,
        _ => Model::Omp,
    }
}

fn kind_is_parallel(k: GenKind) -> bool {
    k == GenKind::OmpParallel
}
