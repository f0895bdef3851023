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
mod spmd_merge;

pub use plan_text::{fork_threads, plan_lines, red_list};
pub use spmd_merge::spmd_merge;
pub use syntax::{assignments_to, declared_in, node_in, only_statement};

use super::ir::{Region, Size};
use super::reduction::array_generic::TeamArrayRed;
use super::staging::Home;
use super::team_limit::RuntimeLimit;
use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, Model};
use crate::front::{Attached, CTree};
use crate::sema::layout::{Consts, Layout};
use crate::sema::loops::CanonLoop;
use crate::sema::sharing::{self, RedOp};
use crate::sema::{Arith, CType, Deriv};
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    OmpTarget,
    OmpTeams,
    OmpParallel,
    AccParallel,
    AccSerial,
}

impl GenKind {
    pub fn describe(self) -> &'static str {
        match self {
            GenKind::OmpTarget => "generic mode: one team; its initial thread (thread 0) runs the sequential part",
            GenKind::OmpTeams => "generic mode: thread 0 of every team runs the sequential part",
            GenKind::OmpParallel => "generic mode: the structured block is one parallel region of the whole team",
            GenKind::AccParallel => "generic mode: thread 0 of every gang runs the gang-redundant code (worker-single, vector-single)",
            GenKind::AccSerial => "serial: one gang of one thread runs the whole block",
        }
    }
}

/// How a worksharing loop spreads its iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spread {
    /// Over the threads of the team (`parallel for`, `for`, `acc loop worker/vector`).
    Team,
    /// Over every thread of every team (`distribute parallel for`, `acc loop gang vector`).
    Grid,
    /// Over the teams, run by each team's master (`distribute`, `acc loop gang`).
    Teams,
}

impl Spread {
    pub fn describe(self) -> &'static str {
        match self {
            Spread::Team => "iterations over the team's threads",
            Spread::Grid => "iterations over all threads of all teams",
            Spread::Teams => "iterations over the teams, run by each team's master",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrivKind {
    Private,
    Firstprivate,
    Lastprivate { conditional: bool },
}

impl PrivKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PrivKind::Private => "private",
            PrivKind::Firstprivate => "firstprivate",
            PrivKind::Lastprivate { conditional: false } => "lastprivate",
            PrivKind::Lastprivate { conditional: true } => "lastprivate(conditional)",
        }
    }
}

/// A variable a nested construct privatizes with a clause.
#[derive(Clone, Debug)]
pub struct PrivVar {
    pub name: String,
    pub ty: CType,
    pub kind: PrivKind,
    /// The clause item.
    pub span: Span,
    /// For `lastprivate(conditional:)`: the assignments to instrument.
    pub assigns: Vec<Span>,
    /// An array section's first index and length (`privarray::nested_section`).
    pub section: Option<(String, String)>,
}

/// A `reduction(op: var)` item of a construct nested in the region whose
/// iterations (or whose region) the threads of one team share: each thread
/// gets a private copy initialised to the identity, the team combines the
/// copies, and the team's thread 0 combines that into the original variable.
#[derive(Clone, Debug)]
pub struct GenRed {
    pub name: String,
    /// The variable's type (an arithmetic scalar, qualifiers dropped).
    pub ty: CType,
    pub arith: Arith,
    pub op: RedOp,
    /// The clause item.
    pub span: Span,
}

impl GenRed {
    /// The reduction of the region variable `v` with `op` over `arith`.
    pub fn of(v: &sharing::VarAttr, op: RedOp, arith: Arith) -> GenRed {
        GenRed {
            name: v.sym.name.clone(),
            ty: CType {
                base: v.sym.ty.unqualified_base(),
                derivs: vec![],
            },
            arith,
            op,
            span: v.span,
        }
    }
}

/// A loop construct inside the region.
#[derive(Clone, Debug)]
pub struct WsLoop {
    pub construct: String,
    pub pragma: Span,
    pub stmt: Span,
    pub nest: Vec<CanonLoop>,
    pub types: Vec<CType>,
    pub spread: Spread,
    /// An implicit barrier among the team's threads follows the loop.
    pub barrier_after: bool,
    pub privates: Vec<PrivVar>,
    /// For loops of the sequential part: the staged variable each loop
    /// variable is (when a fork inside the loop uses it).
    pub staged_vars: Vec<Option<usize>>,
    /// Worksharing loops inside a fork: their reductions.
    pub reductions: Vec<GenRed>,
    /// The loop ends its parallel region: its reductions are combined into
    /// the original variables at the end of the region (before the join)
    /// rather than between two team barriers after the loop.
    pub red_at_join: bool,
}

/// A nested parallel construct: one `case` of the region's dispatch.
#[derive(Clone, Debug)]
pub struct Fork {
    pub id: u32,
    pub construct: String,
    pub pragma: Span,
    pub stmt: Span,
    pub line: usize,
    /// `num_threads(expr)`, evaluated by the master at the fork.
    pub num_threads: Option<String>,
    pub if_cond: Option<String>,
    /// Loop forks: the loop itself.
    pub ws: Option<WsLoop>,
    /// `private` / `firstprivate` on a `parallel`.
    pub privates: Vec<PrivVar>,
    /// `reduction` on the fork construct itself.
    pub reductions: Vec<GenRed>,
    /// Staged variables the region uses (indices into `Generic::staged`).
    pub staged: Vec<usize>,
    /// Mapped scalars the region uses (indices into `Region::vars`).
    pub mapped_scalars: Vec<usize>,
    pub has_barrier: bool,
    /// Every variable the construct references, for the sharing report.
    pub vars: Vec<ScopeVar>,
}

/// Where a variable of a scope lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarHome {
    /// A register (or local memory) of each thread; the detail says whose.
    Register(&'static str),
    /// The team's frame (index into `Generic::staged`).
    Staged(usize),
    /// The device copy of mapped data, in global memory.
    Device,
    /// Private copies of an array in a per-launch area in global memory
    /// (`privarray.rs`); the detail says whose.
    Copies(&'static str),
}

/// How the rule that decided an attribute is classified by the specs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    Explicit,
    Predetermined,
    Implicit,
}

impl RuleKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RuleKind::Explicit => "explicit",
            RuleKind::Predetermined => "predetermined",
            RuleKind::Implicit => "implicit",
        }
    }
}

/// A variable referenced in a nested parallel construct, for the sharing report.
#[derive(Clone, Debug)]
pub struct ScopeVar {
    pub name: String,
    pub ty: CType,
    pub attribute: String,
    pub home: VarHome,
    pub rule: &'static str,
    pub kind: RuleKind,
    /// The clause item or first use.
    pub span: Span,
    /// The declaration's name, when the variable is declared in the region.
    pub decl: Option<Span>,
}

/// A variable of the team's frame.
#[derive(Clone, Debug)]
pub struct Staged {
    pub name: String,
    pub ty: CType,
    /// The declared name (sequential-part variables) or the region
    /// variable's clause item or first use.
    pub span: Span,
    /// A region variable (kernel parameter or target-level private) rather
    /// than one declared in the sequential part.
    pub region_var: bool,
    /// The iteration variable of a loop of the sequential part, declared
    /// before the loop: the team's private copy of the current iteration's
    /// value (the loop binds it; `span` is the name in the loop's header).
    pub loop_var: bool,
    pub layout: Layout,
    pub home: Home,
    /// The size depends on a macro: the kernel asserts it.
    pub assert_size: bool,
    /// The declarator to rewrite and its initializer (sequential-part variables).
    pub declarator: Option<Span>,
    pub init: Option<Span>,
    /// The end of its declaration when that is a statement of a block
    /// (where `(void)name;` can follow when the sequential part never
    /// names it again).
    pub decl_end: Option<usize>,
    /// A variable-length array: the frame holds its address (`ty` is the
    /// pointer type) and this is its extent, evaluated at the declaration.
    pub vla_extent: Option<Span>,
    /// The start of its declaration statement (where a VLA's storage is
    /// allocated).
    pub decl_start: Option<usize>,
    /// Forks that use it.
    pub forks: Vec<u32>,
    /// Why it is staged (for the sharing report).
    pub why: String,
}

/// A variable declared in the sequential part that no fork uses.
#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub ty: CType,
    pub span: Span,
}

/// `omp_*` queries whose value the lowering knows at each place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtCall {
    ThreadNum,
    NumThreads,
    TeamNum,
    NumTeams,
    InParallel,
    Level,
    ActiveLevel,
    IsInitialDevice,
    ThreadLimit,
}

impl RtCall {
    fn from_name(n: &str) -> Option<RtCall> {
        Some(match n {
            "omp_get_thread_num" => RtCall::ThreadNum,
            "omp_get_num_threads" => RtCall::NumThreads,
            "omp_get_team_num" => RtCall::TeamNum,
            "omp_get_num_teams" => RtCall::NumTeams,
            "omp_in_parallel" => RtCall::InParallel,
            "omp_get_level" => RtCall::Level,
            "omp_get_active_level" => RtCall::ActiveLevel,
            "omp_is_initial_device" => RtCall::IsInitialDevice,
            "omp_get_thread_limit" => RtCall::ThreadLimit,
            _ => return None,
        })
    }
}

/// Everything the emitter needs for a generic-mode region.
#[derive(Clone, Debug)]
pub struct Generic {
    pub kind: GenKind,
    /// The structured block.
    pub block: Span,
    /// Threads of a parallel region when no clause says otherwise.
    pub team_limit: u32,
    /// Threads per block: the team limit rounded up to whole warps (named
    /// barrier counts are multiples of 32), or 1 when there is no fork.
    pub block_threads: u32,
    /// A team size given at run time (`team_limit` and `block_threads` are
    /// then upper bounds): the host computes it, the kernel gets it as a
    /// parameter, and blocks are it rounded up to whole warps.
    pub runtime_limit: Option<RuntimeLimit>,
    /// The region calls a function holding a parallel construct (see
    /// `lower::orphan`): the block has workers even without forks of its own.
    pub reaches_orphans: bool,
    /// Orphaned regions its workers dispatch: (region id, outlined body).
    pub orphan_cases: Vec<(u32, String)>,
    pub forks: Vec<Fork>,
    /// Loops of the sequential part.
    pub master_loops: Vec<WsLoop>,
    /// Worksharing loops inside forks: (fork id, loop).
    pub inner_loops: Vec<(u32, WsLoop)>,
    /// Pragmas whose construct runs as plain code: (pragma, why).
    pub stripped: Vec<(Span, &'static str)>,
    /// Barrier pragmas: (pragma, inside a fork).
    pub barriers: Vec<(Span, bool)>,
    /// Runtime queries: (call, which, inside a fork).
    pub calls: Vec<(Span, RtCall, bool)>,
    pub staged: Vec<Staged>,
    pub locals: Vec<Local>,
    pub shared_bytes: u64,
    pub shared_align: u64,
    /// Bytes of one team's frame in global memory (a multiple of 16).
    pub global_bytes: u64,
    pub budget: u64,
    /// `reduction` on the compute construct (`acc parallel` / `acc serial` /
    /// `omp target teams` with a block): each team's private copy, combined
    /// across teams at the end of the kernel (see `lower::reduction`'s
    /// generic form).
    pub team_reds: Vec<GenRed>,
    /// Nested constructs whose reduction clause (explicit, or implicit for
    /// a loop that updates the variable) is the construct's own: (pragma,
    /// variables, implicit). They get no second gang-level setup (seed 001).
    pub construct_red_uses: Vec<(usize, Vec<String>, bool)>,
    /// Of `team_reds`: copied scalars (map tofrom) that only gang loops with
    /// a reduction clause on them use (seed 001's gang reduction of a copy
    /// object), lowered as a reduction on the construct: the block never
    /// reads them between the loops, so a RED_FINI at the kernel's end gives
    /// the same value as one after each loop.
    pub loop_gang_reds: Vec<String>,
    /// Array reductions over the threads of one team, on forks and
    /// worksharing loops in forks (`reduction::array_generic`).
    pub team_array_reds: Vec<TeamArrayRed>,
    /// The `if` clause's host copy of the block: pragmas it rewrites
    /// (`host_if`); empty without an `if` clause.
    pub host_edits: Vec<(Span, String)>,
}

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

/// A type with the qualifiers of its base removed (what the frame stores).
pub fn storage_type(ty: &CType) -> CType {
    CType {
        base: ty.unqualified_base(),
        derivs: ty.derivs.clone(),
    }
}

/// Whether `ty` is an array (its reference declarator needs parentheses).
pub fn is_array(ty: &CType) -> bool {
    matches!(ty.derivs.first(), Some(Deriv::Array(_)))
}
