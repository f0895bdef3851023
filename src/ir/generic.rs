//! Generic-mode regions (a structured block with sequential code around
//! nested parallel constructs): forks, worksharing loops, the team's frame.

use super::c::{Arith, CType, CanonLoop, Layout, RedOp, VarAttr};
use super::reduction::TeamArrayRed;
use super::staging::Home;
use super::team_limit::RuntimeLimit;
use crate::source::Span;

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
    pub fn of(v: &VarAttr, op: RedOp, arith: Arith) -> GenRed {
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
    /// As `Region::narrow_counter`: the team's threads may count the loop
    /// in 32 bits (`lower::counter::narrow_nest`).
    pub narrow_counter: bool,
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
    /// `schedule` / `dist_schedule` (`lower::chunk`): the chunks of the
    /// loop's workers (the team's threads, every thread of every team, or
    /// the teams); `None`: one iteration per worker in turn.
    pub chunk: Option<crate::ir::region::Chunk>,
    /// The plan's line for the chunk (`lower::chunk::describe`).
    pub chunk_note: Option<String>,
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
    /// The same, zero-filled when the region's entry allocates it (OpenACC
    /// `zero:` on `create` / `copyout`).
    DeviceZeroed,
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
    pub fn from_name(n: &str) -> Option<RtCall> {
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

/// The `private` / `firstprivate` items of a construct that runs as plain
/// code: their copies live in a block around `stmt`.
#[derive(Clone, Debug)]
pub struct InOrderPrivates {
    pub stmt: Span,
    pub privates: Vec<PrivVar>,
}

/// Who runs a construct that one thread runs, or one thread at a time
/// (`lower::generic::serial`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SerialKind {
    /// `single`: the team's thread 0; a team barrier follows unless `nowait`.
    Single { barrier: bool },
    /// `master` / `masked [filter(e)]`: the thread whose number is the
    /// filter (0 when absent).
    Masked { filter: Option<Span> },
    /// `critical [(name)]`: one thread at a time of every team, through the
    /// name's spin lock in global memory (seed 001).
    Critical { name: Option<String> },
    /// `sections` in a fork: section k (in source order) runs on thread
    /// k mod the team (a loop over a `switch`); `section` holds the
    /// pragmas of the `section` directives, `implicit_first` says that the
    /// first section has none; a team barrier follows unless `nowait`.
    Sections {
        barrier: bool,
        section: Vec<Span>,
        implicit_first: bool,
    },
    /// `scope` in a fork: every thread runs it (with its own copies of
    /// the private items); a team barrier follows unless `nowait`.
    Scope { barrier: bool },
    /// `flush`: a full fence (`__threadfence`), whatever its clauses ask
    /// (seed 004: flush as a full fence); no statement.
    Flush,
}

/// A `single`, `master`, `masked` or `critical` construct in a
/// generic-mode region.
#[derive(Clone, Debug)]
pub struct Serial {
    pub kind: SerialKind,
    pub pragma: Span,
    pub stmt: Span,
    /// Inside a fork (a team of threads) rather than the sequential part.
    pub in_fork: bool,
}

impl Serial {
    /// The global variable of a critical construct's lock: one per name.
    pub fn lock_name(name: &Option<String>) -> String {
        match name {
            Some(n) => format!("p2c_critical_lock_{n}"),
            None => "p2c_critical_lock".to_string(),
        }
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
    /// Private copies of constructs that run as plain code (a `seq` loop,
    /// any loop of `acc serial`): declared in a block around the statement.
    pub in_order_privates: Vec<InOrderPrivates>,
    /// Barrier pragmas: (pragma, inside a fork).
    pub barriers: Vec<(Span, bool)>,
    /// `single`, `master`, `masked` and `critical` constructs.
    pub serials: Vec<Serial>,
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

impl Generic {
    /// Every worksharing loop of the region (of the sequential part's
    /// forks and of the fork bodies), in source order, each once.
    pub fn fork_loops_in_order(&self) -> Vec<&WsLoop> {
        let mut loops: Vec<&WsLoop> = self
            .inner_loops
            .iter()
            .map(|(_, w)| w)
            .chain(self.forks.iter().filter_map(|f| f.ws.as_ref()))
            .collect();
        loops.sort_by_key(|w| w.pragma.start);
        loops.dedup_by_key(|w| w.pragma);
        loops
    }
}

/// The reductions as clause text (`reduction(+: s) reduction(max: m)`).
pub fn red_list(reds: &[GenRed]) -> String {
    reds.iter()
        .map(|r| format!("{}({}: {})", "reduction", r.op.as_str(), r.name))
        .collect::<Vec<_>>()
        .join(" ")
}
