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

mod construct_reductions;
mod fork_scope;
mod nested_clauses;
mod plan_text;
mod roles;
mod spmd_merge;
mod syntax;

pub use plan_text::{fork_threads, plan_lines, red_list};
pub use spmd_merge::spmd_merge;
pub use syntax::{assignments_to, declared_in, node_in, only_statement};

use super::ir::{Region, Schedule, Size};
use super::reduction::array_generic::{self, TeamArrayRed};
use super::staging::{self, Candidate, Home};
use super::team_limit::{self, RuntimeLimit};
use crate::diag::{codes, Diagnostic};
use crate::directives::{ClauseArgs, Directive, Model};
use crate::front::{Attached, CTree};
use crate::sema::layout::{self, Consts, Layout};
use crate::sema::loops::{int_literal, CanonLoop};
use crate::sema::sharing::{self, Attr, RedOp};
use crate::sema::{symbols, uses, Arith, CType, Deriv};
use crate::source::{SourceFile, Span};
use construct_reductions::{
    construct_red_ok, construct_reductions, implicit_reductions, nested_teams_reductions,
    of_construct, promote_gang_loop_reductions,
};
use fork_scope::fork_scope;
use nested_clauses::{loop_nest, privates, reductions};
use roles::{nested_clause_ok, role, top_clause_ok, Role};
use std::collections::BTreeSet;
use syntax::{
    address_taken, clause_uses, collect_locals, declarator_site, direct_writes, node_at,
    runtime_calls, scope_end, span_of, symbols_decl_span,
};

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

struct Ctx<'a> {
    file: &'a SourceFile,
    tree: &'a CTree,
    consts: Consts,
    diags: &'a mut Vec<Diagnostic>,
    /// Array reductions of nested constructs (`reduction::array_generic`).
    array_reds: Vec<TeamArrayRed>,
}

/// Lowers a generic-mode region. `nested` are the directives inside it.
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
    // `target` whose block is a `teams` construct (closely nested, as in
    // the paper's figures) is `target teams` with both clause lists.
    let teams = nested.iter().find(|n| {
        at.directive.model == Model::Omp
            && at.directive.name == "target"
            && n.directive.name == "teams"
            && n.stmt.is_some()
            && (n.stmt == at.stmt || only_statement(tree, at.stmt, n))
    });
    let merged;
    let d = match teams {
        Some(t) => {
            let mut m = at.directive.clone();
            m.name = "target teams".into();
            m.clauses.extend(t.directive.clauses.iter().cloned());
            merged = m;
            &merged
        }
        None => &at.directive,
    };
    let nested: Vec<&Attached> = nested
        .iter()
        .copied()
        .filter(|n| teams.map_or(true, |t| n.directive.span != t.directive.span))
        .collect();
    let kind = kind_of(d);
    let errors_before = diags.iter().filter(|x| x.is_error()).count();
    let mut cx = Ctx {
        file,
        tree,
        consts: Consts::from_text(&file.text),
        diags,
        array_reds: Vec::new(),
    };
    for c in &d.clauses {
        // Reduction items are lowered or refused below, one diagnostic each.
        if c.name == "reduction" {
            continue;
        }
        if !top_clause_ok(d.model, &c.name) {
            cx.diags.push(not_supported(
                c.name_span,
                format!(
                    "clause `{}` on `{} {}` with a structured block is not supported yet",
                    c.name,
                    d.model.as_str(),
                    d.name
                ),
            ));
        }
    }
    let Some(block) = at.stmt else {
        cx.diags.push(
            Diagnostic::new(
                codes::NO_ASSOCIATED_LOOP,
                d.span,
                format!(
                    "`{} {}` must be followed by a structured block",
                    d.model.as_str(),
                    d.name
                ),
            )
            .with_label("no statement follows"),
        );
        return None;
    };
    let stmt = node_at(tree, block)?;
    if stmt.has_error() {
        cx.diags.push(
            Diagnostic::new(
                codes::C_PARSE,
                block,
                "the C code of this region could not be parsed; no code is generated for it",
            )
            .with_label("syntax error in here")
            .with_secondary(d.span, "region begins here"),
        );
        return None;
    }
    let root = tree.root()?;
    let text = &file.text;
    let symbols_at_region = symbols::visible_at(root, text, stmt);
    let (mut used, region_calls) = uses::free_identifiers(stmt, text);
    clause_uses(tree, text, root, block, &nested, &mut used);
    super::privarray::drop_nested_private_uses(&mut used, &nested, block, text);
    // `acc kernels`: scalars default to copy (OpenACC 3.3 2.6.2).
    let is_kernels = d.model == Model::Acc && d.name == "kernels";
    // `acc kernels` with a structured block (not a `kernels loop` the
    // driver split, whose loop's pragma starts at the construct's name):
    // one gang runs the block, its master the sequential code, its threads
    // the nested loops. Correct for any code the block holds (no kernels
    // analysis is done), not yet fast.
    let one_gang = is_kernels
        && !nested
            .iter()
            .any(|n| n.stmt == Some(block) && n.directive.span.start == d.name_span.start);
    let mut vars = sharing::decide(
        d,
        is_kernels,
        &used,
        &symbols_at_region,
        &[],
        env,
        text,
        cx.diags,
    );
    let hoisted = super::build::local_types(
        file,
        at,
        &symbols_at_region,
        &mut vars,
        &kernel,
        block,
        cx.diags,
    );
    for v in &vars {
        if matches!(v.attr, Attr::Lastprivate { .. }) {
            cx.diags.push(not_supported(
                v.span,
                "lastprivate on a compute construct with a structured block is not supported yet",
            ));
        }
        let refuse = match v.attr {
            Attr::Reduction { .. } | Attr::ArrayReduction { .. } => {
                !construct_red_ok(kind) && kind != GenKind::OmpParallel
            }
            _ => false,
        };
        if refuse {
            cx.diags.push(not_supported(
                v.span,
                if matches!(v.attr, Attr::ArrayReduction { .. }) {
                    "array reductions on a compute construct with a structured block are not supported yet"
                } else {
                    "reductions on a compute construct with a structured block are not supported yet"
                },
            ).with_note("lowered: `reduction` on `acc parallel`, `acc serial` and `omp target teams` with a structured block"));
        }
    }
    // `target parallel`: the clause is its one fork's (fork 1, below).
    let parallel_reds = if kind == GenKind::OmpParallel {
        let (s, a) = super::target_parallel_red::to_fork(d, &mut vars, cx.diags);
        cx.array_reds.extend(a);
        s
    } else {
        vec![]
    };
    let mut team_reds = construct_reductions(&vars);
    if let Some(t) = teams {
        nested_teams_reductions(file, &at.directive, t, &team_reds, cx.diags);
    }
    let loop_gang_reds = if construct_red_ok(kind) {
        promote_gang_loop_reductions(kind, block, &nested, &mut vars, text, &symbols_at_region)
    } else {
        vec![]
    };
    let loop_gang_names: Vec<String> = loop_gang_reds.iter().map(|r| r.name.clone()).collect();
    team_reds.extend(loop_gang_reds);
    let mut construct_red_uses: Vec<(usize, Vec<String>, bool)> = Vec::new();
    // Variables assigned as a whole (not through a subscript) or whose
    // address is taken: a kernel parameter cannot hold them for the team.
    let mut written: BTreeSet<String> = BTreeSet::new();
    direct_writes(stmt, text, &mut written);
    address_taken(stmt, text, &mut written);
    // Array reductions of loops over the teams go on the compute construct
    // (`reduction/array_over_teams.rs`).
    let mut locals = Vec::new();
    declared_in(stmt, text, &mut locals);
    let locals: Vec<String> = locals.into_iter().map(|s| s.name).collect();
    let team_arrays = if construct_red_ok(kind) {
        super::reduction::array_over_teams::promote(
            block,
            &nested,
            |d| {
                matches!(
                    role(d, kind, false, false),
                    Role::MasterLoop | Role::Fork(Spread::Grid)
                )
            },
            &mut vars,
            text,
            &symbols_at_region,
            &locals,
            &written,
        )
    } else {
        vec![]
    };

    // --- nested directives: roles, in source order ---------------------
    let mut forks: Vec<Fork> = Vec::new();
    let mut master_loops: Vec<WsLoop> = Vec::new();
    let mut inner_loops: Vec<(u32, WsLoop)> = Vec::new();
    let mut stripped: Vec<(Span, &'static str)> = Vec::new();
    let mut barriers: Vec<(Span, bool)> = Vec::new();
    // A `target parallel` block is one fork of the whole team.
    if kind == GenKind::OmpParallel {
        forks.push(Fork {
            id: 1,
            construct: format!("{} {}", d.model.as_str(), d.name),
            pragma: d.span,
            stmt: block,
            line: file.line_of(d.span.start),
            num_threads: None,
            if_cond: None,
            ws: None,
            privates: vec![],
            reductions: parallel_reds,
            staged: vec![],
            mapped_scalars: vec![],
            has_barrier: false,
            vars: vec![],
        });
    }
    let mut sorted: Vec<&&Attached> = nested.iter().collect();
    sorted.sort_by_key(|a| a.directive.span.start);
    for na in sorted {
        let nd = &na.directive;
        let fork_here = forks
            .iter()
            .find(|f| nd.span.within(Span::new(f.pragma.start, f.stmt.end)) && f.pragma != nd.span);
        let in_fork = fork_here.is_some();
        let fork_is_loop = fork_here.is_some_and(|f| f.ws.is_some());
        let fork_id = fork_here.map(|f| f.id);
        let fork_ctx = fork_here.map(|f| f.stmt);
        // Names each thread of the enclosing fork has its own copy of.
        let fork_own: Vec<String> = fork_here
            .map(|f| {
                f.privates
                    .iter()
                    .map(|p| p.name.clone())
                    .chain(f.reductions.iter().map(|r| r.name.clone()))
                    .chain(f.ws.iter().flat_map(|w| {
                        w.privates
                            .iter()
                            .map(|p| p.name.clone())
                            .chain(w.nest.iter().map(|l| l.var.clone()))
                    }))
                    .collect()
            })
            .unwrap_or_default();
        let mut r = role(nd, kind, in_fork, fork_is_loop);
        // An `acc loop` with no level inside a gang loop of the sequential
        // part takes the levels below gang: the threads of the gang; in a
        // kernels block of one gang, all threads are that gang's.
        if r == Role::Fork(Spread::Grid)
            && nd.model == Model::Acc
            && (one_gang
                || (nd.clause("gang").is_none()
                    && master_loops.iter().any(|w| nd.span.within(w.stmt))))
        {
            r = Role::Fork(Spread::Team);
        } else if r == Role::Fork(Spread::Grid)
            && !one_gang
            && super::acc_auto::gang_by_nesting(nd, na.stmt, &nested)
        {
            // No level, with a loop inside that takes the levels below gang.
            r = Role::MasterLoop;
        }
        if r == Role::Unsupported {
            cx.diags.push(
                not_supported(
                    nd.name_span,
                    format!(
                        "`{} {}` {} is not supported yet",
                        nd.model.as_str(),
                        nd.name,
                        if in_fork {
                            "inside a parallel region of a generic-mode kernel"
                        } else {
                            "in the sequential part of an offloaded region"
                        }
                    ),
                )
                .with_secondary(d.span, "in the region that starts here")
                .with_note("lowered inside a region: omp parallel [for], distribute [parallel for], for, loop (in a parallel region), simd, barrier; acc loop [gang] [worker] [vector] [seq]"),
            );
            continue;
        }
        if matches!(r, Role::Barrier | Role::Strip(_)) {
            // A loop one thread runs in order: its reductions are the loop's
            // own updates of the variable (identity, then combined once).
            if matches!(r, Role::Strip(_)) && nd.clause("reduction").is_some() {
                if let Some(n) = na.stmt.and_then(|s| node_at(tree, s)) {
                    let reds = reductions(&mut cx, nd, n, None, &[]);
                    array_generic::in_order(
                        &mut cx.array_reds,
                        nd.span,
                        fork_ctx.is_some(),
                        cx.diags,
                    );
                    // Inside a parallel region every thread runs the loop:
                    // that is the clause's meaning only for its own variables.
                    if let Some(fstmt) = &fork_ctx {
                        let syms = symbols::visible_at(root, text, n);
                        for red in reds {
                            let own = fork_own.contains(&red.name)
                                || syms
                                    .get(&red.name)
                                    .is_some_and(|s| s.decl_span.within(*fstmt));
                            if !own {
                                cx.diags.push(
                                    not_supported(
                                        red.span,
                                        format!(
                                            "a reduction on a loop that each thread of a parallel region runs in order, over `{}`, which the threads share, is not supported yet",
                                            red.name
                                        ),
                                    )
                                    .with_note("only reductions over the threads of one team are lowered (omp parallel [for], for; acc loop worker / vector)"),
                                );
                            }
                        }
                    }
                }
            }
            for c in &nd.clauses {
                if c.name == "reduction" && matches!(r, Role::Strip(_)) {
                    continue;
                }
                if !nested_clause_ok(nd.model, &c.name) {
                    cx.diags.push(not_supported(
                        c.name_span,
                        format!("clause `{}` here is not supported yet", c.name),
                    ));
                }
            }
            match r {
                Role::Barrier => barriers.push((nd.span, true)),
                Role::Strip(why) => stripped.push((nd.span, why)),
                _ => {}
            }
            continue;
        }
        for c in &nd.clauses {
            if c.name == "copyin" && nd.model == Model::Omp {
                cx.diags.push(
                    Diagnostic::new(
                        codes::DEVICE_COPYIN,
                        c.span,
                        "`copyin` on a parallel region inside an offloaded region is not allowed: threadprivate variables do not exist on the device",
                    )
                    .with_label("copyin on the device"),
                );
            } else if c.name == "reduction" {
                let why = match r {
                    Role::Fork(Spread::Team) | Role::InnerLoop => None,
                    Role::Fork(_) | Role::MasterLoop
                        if !team_reds.is_empty() || !team_arrays.is_empty() =>
                    {
                        match of_construct(c, &team_reds, &team_arrays) {
                            Ok(names) if names.is_empty() => None,
                            Ok(names) => {
                                let line = file.line_of(nd.span.start);
                                match construct_red_uses.last_mut() {
                                    Some((l, v, false)) if *l == line => v.extend(names),
                                    _ => construct_red_uses.push((line, names, false)),
                                }
                                None
                            }
                            Err(e) => {
                                cx.diags.push(
                                    not_supported(e.0, e.1)
                                        .with_secondary(d.span, "the compute construct's reduction clause")
                                        .with_note("lowered: a reduction over the teams on a variable the compute construct reduces with the same operator (seed 001: no second gang-level setup), or on a scalar or array section the construct maps tofrom and only such loops name (same operator and section)"),
                                );
                                continue;
                            }
                        }
                    }
                    Role::Fork(_) => Some("reductions on a loop spread over the threads of all teams are not supported yet"),
                    _ => Some("reductions on a loop spread over the teams are not supported yet"),
                };
                if let Some(why) = why {
                    cx.diags.push(
                        not_supported(c.span, why)
                            .with_note("lowered inside a region: reductions over the threads of one team (omp parallel [for], for; acc loop worker / vector); over the teams, on a variable the compute construct reduces, or on a scalar or array section it maps tofrom that only such loops name (same operator and section)"),
                    );
                }
            } else if !nested_clause_ok(nd.model, &c.name) {
                cx.diags.push(not_supported(
                    c.name_span,
                    format!(
                        "clause `{}` on nested `{} {}` is not supported yet",
                        c.name,
                        nd.model.as_str(),
                        nd.name
                    ),
                ));
            } else if matches!(c.name.as_str(), "gang" | "worker" | "vector")
                && !matches!(c.args, ClauseArgs::None)
            {
                cx.diags.push(
                    not_supported(
                        c.span,
                        format!("arguments of `{}` are not supported yet", c.name),
                    )
                    .with_help(
                        "use num_gangs / num_workers / vector_length on the compute construct",
                    ),
                );
            }
        }
        let Some(nstmt_span) = na.stmt else {
            cx.diags.push(
                Diagnostic::new(
                    codes::NO_ASSOCIATED_LOOP,
                    nd.span,
                    format!(
                        "`{} {}` must be followed by a statement",
                        nd.model.as_str(),
                        nd.name
                    ),
                )
                .with_label("no statement follows"),
            );
            continue;
        };
        let Some(nstmt) = node_at(tree, nstmt_span) else {
            continue;
        };
        let is_loop_construct = match nd.model {
            Model::Omp => {
                nd.name.contains("for") || nd.name.starts_with("distribute") || nd.name == "loop"
            }
            Model::Acc => true,
        };
        let ws = if is_loop_construct {
            let Some((nest, types)) = loop_nest(&mut cx, nd, nstmt) else {
                continue;
            };
            let body = nest.last().and_then(|l| node_at(tree, l.body));
            let mut privs = privates(&mut cx, nd, nstmt, body);
            let spread = match r {
                Role::Fork(s) => s,
                Role::MasterLoop => Spread::Teams,
                _ => Spread::Team,
            };
            super::gen_lastprivate::keep_team_only(&mut privs, spread, cx.diags);
            super::teams_lastprivate::keep_unshared_uses(
                &mut privs,
                spread,
                one_gang,
                Span::new(nd.span.start, nstmt_span.end),
                block,
                text,
                cx.diags,
            );
            Some(WsLoop {
                construct: super::build::pragma_one_line(file.slice(nd.span))
                    .trim_start_matches("#pragma ")
                    .to_string(),
                pragma: nd.span,
                stmt: nstmt_span,
                nest,
                types,
                spread,
                barrier_after: r == Role::InnerLoop && nd.clause("nowait").is_none(),
                privates: privs,
                staged_vars: vec![],
                reductions: match (r, &fork_ctx) {
                    (Role::InnerLoop, Some(fs)) => {
                        reductions(&mut cx, nd, nstmt, Some(*fs), &fork_own)
                    }
                    _ => vec![],
                },
                red_at_join: false,
            })
        } else {
            None
        };
        match r {
            Role::Fork(_) => {
                let (num_threads, if_cond) = match nd.model {
                    Model::Omp => (
                        nd.clause("num_threads")
                            .and_then(|c| c.expr())
                            .map(|e| e.text.clone()),
                        nd.clause("if")
                            .and_then(|c| c.expr())
                            .map(|e| e.text.clone()),
                    ),
                    Model::Acc => (None, None),
                };
                let privs = if ws.is_some() {
                    vec![]
                } else {
                    privates(&mut cx, nd, nstmt, Some(nstmt))
                };
                let mut reds = if r == Role::Fork(Spread::Team)
                    || (r == Role::Fork(Spread::Grid)
                        && (!team_reds.is_empty() || !team_arrays.is_empty()))
                {
                    reductions(&mut cx, nd, nstmt, None, &[])
                } else {
                    vec![]
                };
                if let Some(w) = &ws {
                    let implicit = implicit_reductions(nstmt, text, &team_reds, &reds, w);
                    if !implicit.is_empty() {
                        construct_red_uses.push((
                            file.line_of(nd.span.start),
                            implicit.iter().map(|x| x.name.clone()).collect(),
                            true,
                        ));
                        reds.extend(implicit);
                    }
                }
                let id = forks.len() as u32 + 1;
                forks.push(Fork {
                    id,
                    construct: super::build::pragma_one_line(file.slice(nd.span))
                        .trim_start_matches("#pragma ")
                        .to_string(),
                    pragma: nd.span,
                    stmt: nstmt_span,
                    line: file.line_of(nd.span.start),
                    num_threads,
                    if_cond,
                    ws,
                    privates: privs,
                    reductions: reds,
                    staged: vec![],
                    mapped_scalars: vec![],
                    has_barrier: false,
                    vars: vec![],
                });
            }
            Role::MasterLoop => {
                if let Some(w) = ws {
                    master_loops.push(w);
                }
            }
            Role::InnerLoop => {
                if let (Some(w), Some(id)) = (ws, fork_id) {
                    inner_loops.push((id, w));
                }
            }
            _ => {}
        }
    }
    for (sp, in_fork) in barriers.iter_mut() {
        let f = forks
            .iter_mut()
            .find(|f| sp.within(Span::new(f.pragma.start, f.stmt.end)) && f.pragma != *sp);
        *in_fork = f.is_some();
        if let Some(f) = f {
            f.has_barrier = true;
        }
    }
    // lastprivate(conditional:) combines between two team barriers.
    for f in forks.iter_mut() {
        if f.ws
            .as_ref()
            .is_some_and(|w| super::gen_lastprivate::any(&w.privates))
        {
            f.has_barrier = true;
        }
    }
    for (id, w) in &inner_loops {
        if super::gen_lastprivate::any(&w.privates) {
            forks[(*id - 1) as usize].has_barrier = true;
        }
    }
    // The implicit barrier after a worksharing loop that ends its parallel
    // region is the join itself.
    for (id, w) in inner_loops.iter_mut() {
        if !w.barrier_after {
            continue;
        }
        let f = &forks[(*id - 1) as usize];
        let body_end = node_at(tree, f.stmt)
            .map(|s| {
                if s.kind() == "compound_statement" {
                    s.end_byte() - 1
                } else {
                    s.end_byte()
                }
            })
            .unwrap_or(f.stmt.end);
        let rest = text.get(w.stmt.end.min(body_end)..body_end).unwrap_or("");
        if rest.trim().is_empty() {
            w.barrier_after = false;
        } else {
            forks[(*id - 1) as usize].has_barrier = true;
        }
    }
    // Reductions of worksharing loops: combined at the join when the loop
    // ends its region, else between two team barriers after the loop.
    for (id, w) in inner_loops.iter_mut() {
        if w.reductions.is_empty() {
            continue;
        }
        let f = &mut forks[(*id - 1) as usize];
        let body_end = node_at(tree, f.stmt)
            .map(|s| {
                if s.kind() == "compound_statement" {
                    s.end_byte() - 1
                } else {
                    s.end_byte()
                }
            })
            .unwrap_or(f.stmt.end);
        let rest = text.get(w.stmt.end.min(body_end)..body_end).unwrap_or("");
        // A statement of the region's block itself (not of a loop or `if`
        // in it, which may run it several times or not at all).
        let top_level = w.stmt == f.stmt
            || node_at(tree, w.stmt)
                .and_then(|n| n.parent())
                .is_some_and(|p| span_of(p) == f.stmt);
        if top_level && rest.trim().is_empty() {
            w.red_at_join = true;
        } else {
            // The team barrier after the combine also keeps the warps'
            // slots until thread 0 has read them (even with nowait).
            w.barrier_after = true;
            f.has_barrier = true;
        }
    }

    // The reductions write their variables.
    for r in forks
        .iter()
        .flat_map(|f| f.reductions.iter())
        .chain(inner_loops.iter().flat_map(|(_, w)| w.reductions.iter()))
    {
        written.insert(r.name.clone());
    }

    // --- launch shape -----------------------------------------------------
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
                limit_term(&mut cx, "thread_limit"),
                limit_term(&mut cx, "num_threads"),
            ];
            let limit = match team_limit::combine(team_limit::Combine::Min, &terms) {
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
                limit_term(&mut cx, "num_workers"),
                limit_term(&mut cx, "vector_length"),
            ];
            let limit = match team_limit::combine(team_limit::Combine::Product, &terms) {
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
    ) && super::orphan::reaches_parallel(file, tree, &region_calls);
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
    // --- staging ----------------------------------------------------------
    let region_var = |name: &str| vars.iter().position(|v| v.sym.name == name);
    struct Want {
        name: String,
        ty: CType,
        span: Span,
        decl_span: Option<Span>,
        region_var: bool,
        forks: Vec<u32>,
        why: String,
    }
    let mut wants: Vec<Want> = Vec::new();
    let mut fork_wants: Vec<Vec<usize>> = vec![vec![]; forks.len()];
    let mut fork_mapped: Vec<Vec<usize>> = vec![vec![]; forks.len()];
    for (fi, f) in forks.iter().enumerate() {
        if kind == GenKind::OmpParallel {
            // The whole block is the fork: nothing of a sequential part to share.
            for (vi, v) in vars.iter().enumerate() {
                if matches!(v.attr, Attr::Mapped { .. }) && v.sym.ty.is_scalar() {
                    fork_mapped[fi].push(vi);
                }
            }
            continue;
        }
        let Some(fnode) = node_at(tree, f.stmt) else {
            continue;
        };
        let (mut fused, _) = uses::free_identifiers(fnode, text);
        // The variables of its reductions are shared by the team even when
        // only the clause names them.
        for r in f.reductions.iter().chain(
            inner_loops
                .iter()
                .filter(|(id, _)| *id == f.id)
                .flat_map(|(_, w)| w.reductions.iter()),
        ) {
            if !fused.iter().any(|u| u.name == r.name) {
                fused.push(uses::Use {
                    name: r.name.clone(),
                    span: r.span,
                    written: true,
                });
            }
        }
        array_generic::fork_uses(&cx.array_reds, f, &inner_loops, &mut fused);
        let fsyms = symbols::visible_at(root, text, fnode);
        // A loop variable in a lastprivate clause is the original too,
        // which the last iteration's thread assigns: bound like any use.
        let loop_vars: Vec<&str> =
            f.ws.iter()
                .chain(
                    inner_loops
                        .iter()
                        .filter(|(id, _)| *id == f.id)
                        .map(|(_, w)| w),
                )
                .flat_map(|w| {
                    w.nest.iter().map(|l| l.var.as_str()).filter(|v| {
                        !w.privates
                            .iter()
                            .any(|p| p.name == *v && matches!(p.kind, PrivKind::Lastprivate { .. }))
                    })
                })
                .collect();
        let plain_private: Vec<&str> = f
            .privates
            .iter()
            .chain(f.ws.iter().flat_map(|w| w.privates.iter()))
            .filter(|p| p.kind == PrivKind::Private)
            .map(|p| p.name.as_str())
            .collect();
        for u in &fused {
            if loop_vars.contains(&u.name.as_str()) || plain_private.contains(&u.name.as_str()) {
                continue;
            }
            let Some(sym) = fsyms.get(&u.name) else {
                continue;
            };
            if sym.is_typedef || sym.ty.is_function() {
                continue;
            }
            if sym.decl_span.within(block) {
                if sym.is_static {
                    cx.diags.push(not_supported(
                        sym.span,
                        "a static variable of an offloaded region used in a nested parallel region is not supported yet",
                    ));
                    continue;
                }
                let key = wants
                    .iter()
                    .position(|w| w.decl_span == Some(sym.span) && !w.region_var);
                let k = match key {
                    Some(k) => k,
                    None => {
                        wants.push(Want {
                            name: sym.name.clone(),
                            ty: sym.ty.clone(),
                            span: sym.span,
                            decl_span: Some(sym.span),
                            region_var: false,
                            forks: vec![],
                            why: "declared in the sequential part and used in a parallel region"
                                .into(),
                        });
                        wants.len() - 1
                    }
                };
                if !wants[k].forks.contains(&f.id) {
                    wants[k].forks.push(f.id);
                }
                fork_wants[fi].push(k);
            } else if let Some(vi) = region_var(&u.name) {
                let v = &vars[vi];
                let lastp = forks.iter().any(|g| {
                    g.privates
                        .iter()
                        .chain(g.ws.iter().flat_map(|w| w.privates.iter()))
                        .any(|p| {
                            p.name == v.sym.name && matches!(p.kind, PrivKind::Lastprivate { .. })
                        })
                }) || inner_loops.iter().any(|(_, w)| {
                    w.privates.iter().any(|p| {
                        p.name == v.sym.name && matches!(p.kind, PrivKind::Lastprivate { .. })
                    })
                });
                let stage = match &v.attr {
                    Attr::Firstprivate => (written.contains(&v.sym.name) || lastp).then_some(
                        "firstprivate to the region, written in it and used in a parallel region",
                    ),
                    Attr::Private => Some("private to the region and used in a parallel region"),
                    Attr::Mapped { .. } => {
                        if v.sym.ty.is_scalar() {
                            if !fork_mapped[fi].contains(&vi) {
                                fork_mapped[fi].push(vi);
                            }
                        } else if written.contains(&v.sym.name) {
                            cx.diags.push(not_supported(
                                u.span,
                                format!("assigning the mapped pointer `{}` inside a region with parallel regions is not supported yet", v.sym.name),
                            ));
                        }
                        None
                    }
                    Attr::Reduction { .. } => Some(
                        "the team's private copy of a reduction on the compute construct, used in a parallel region",
                    ),
                    // A loop over all teams' threads that reduces it itself
                    // (`reduction/array_over_teams.rs`) combines into the team's copy.
                    Attr::ArrayReduction { .. }
                        if team_arrays.contains(&v.sym.name)
                            && cx
                                .array_reds
                                .iter()
                                .any(|a| a.var == v.sym.name && a.construct == f.pragma) =>
                    {
                        None
                    }
                    Attr::ArrayReduction { .. } => {
                        cx.diags.push(array_generic::construct_array_in_fork(u.span, &v.sym.name));
                        None
                    }
                    Attr::Lastprivate { .. } | Attr::ArrayPrivate { .. } => None,
                };
                if let Some(why) = stage {
                    let key = wants
                        .iter()
                        .position(|w| w.region_var && w.name == v.sym.name);
                    let k = match key {
                        Some(k) => k,
                        None => {
                            // A private array of the region lives in the
                            // frame itself; other arrays are pointers to
                            // their device copy.
                            let ty = if v.sym.ty.is_array() && v.attr != Attr::Private {
                                v.sym.ty.decayed()
                            } else {
                                v.sym.ty.clone()
                            };
                            wants.push(Want {
                                name: v.sym.name.clone(),
                                ty,
                                span: v.span,
                                decl_span: None,
                                region_var: true,
                                forks: vec![],
                                why: why.into(),
                            });
                            wants.len() - 1
                        }
                    };
                    if !wants[k].forks.contains(&f.id) {
                        wants[k].forks.push(f.id);
                    }
                    fork_wants[fi].push(k);
                }
            }
        }
    }
    // Loop variables of the sequential part's loops that forks inside them use.
    for w in master_loops.iter_mut() {
        let body = w.nest.last().and_then(|l| node_at(tree, l.body));
        w.staged_vars = w
            .nest
            .iter()
            .map(|l| {
                let b = body?;
                let s = symbols::visible_at(root, text, b);
                let sym = s.get(&l.var)?;
                wants
                    .iter()
                    .position(|x| !x.region_var && x.decl_span == Some(sym.span))
            })
            .collect();
    }
    let mut cands = Vec::new();
    let mut forced = Vec::new();
    let mut lays = Vec::new();
    let mut ok = vec![true; wants.len()];
    let mut vla = vec![false; wants.len()];
    for (k, w) in wants.iter().enumerate() {
        let live = match w.decl_span {
            Some(s) => {
                let decl = symbols_decl_span(tree, s).unwrap_or(s);
                (decl.start, scope_end(tree, decl, block.end))
            }
            None => (block.start, block.end),
        };
        // Region variables' types are already what the frame holds.
        let ty = w.ty.clone();
        // A reduction variable is an arithmetic scalar whose size sema
        // knows even through typedefs the layout does not read.
        let red_layout = team_reds
            .iter()
            .find(|x| w.region_var && x.name == w.name)
            .map(|x| Layout {
                size: x.arith.bytes() as u64,
                align: x.arith.bytes() as u64,
            });
        match layout::layout_of(
            &layout::resolve_typedefs(&ty, &symbols_at_region),
            &cx.consts,
        )
        .or_else(|e| red_layout.ok_or(e))
        {
            Ok(l) => {
                lays.push(l);
                cands.push(Candidate {
                    size: l.size,
                    align: l.align,
                    live,
                });
                forced.push(false);
            }
            // A one-dimensional variable-length array of the sequential part:
            // its elements go to global memory (the device heap, freed when
            // the master leaves its block), its address to the frame.
            Err(layout::Unknown::Vla(_))
                if !w.region_var
                    && matches!(ty.derivs.as_slice(), [Deriv::Array(Some(_))])
                    && cx.consts.base_layout(&ty.base).is_some() =>
            {
                vla[k] = true;
                let l = Layout { size: 8, align: 8 };
                lays.push(l);
                cands.push(Candidate {
                    size: l.size,
                    align: l.align,
                    live,
                });
                forced.push(false);
            }
            Err(e) => {
                ok[k] = false;
                cx.diags.push(
                    not_supported(
                        w.span,
                        format!(
                            "`{}` is shared with a parallel region but {}; staging it is not supported yet",
                            w.name,
                            e.describe()
                        ),
                    )
                    .with_help("give it a fixed size (an integer constant or a #define of this file)"),
                );
                lays.push(Layout { size: 0, align: 1 });
                cands.push(Candidate {
                    size: 0,
                    align: 1,
                    live,
                });
                forced.push(true);
            }
        }
    }
    let st = staging::stage(&cands, &forced, budget);
    let mut staged = Vec::new();
    for (k, w) in wants.into_iter().enumerate() {
        let (declarator, init) = match w.decl_span {
            Some(s) => match symbols_decl_span(tree, s).and_then(|ds| declarator_site(tree, ds, s))
            {
                Some((d, i)) => (Some(d), i),
                None => (None, None),
            },
            None => (None, None),
        };
        let decl_end = w
            .decl_span
            .and_then(|s| symbols_decl_span(tree, s))
            .and_then(|ds| node_at(tree, ds))
            .filter(|n| n.parent().is_some_and(|p| p.kind() == "compound_statement"))
            .map(|n| n.end_byte());
        if !w.region_var && declarator.is_none() && ok[k] {
            cx.diags.push(not_supported(
                w.span,
                format!(
                    "`{}` is declared where pragma2cuda cannot move it to the team's frame",
                    w.name
                ),
            ));
        }
        // Region variables' types are already what the frame holds.
        let ty = w.ty.clone();
        // VLA: the frame holds a pointer; the extent is evaluated where the
        // array was declared.
        let mut vla_extent = None;
        let mut decl_start = None;
        let ty = if vla[k] {
            vla_extent = declarator
                .and_then(|d| node_at(tree, d))
                .and_then(|n| n.child_by_field_name("size"))
                .map(span_of);
            decl_start = w
                .decl_span
                .and_then(|s| symbols_decl_span(tree, s))
                .filter(|_| decl_end.is_some())
                .map(|d| d.start);
            if vla_extent.is_none() || decl_start.is_none() {
                cx.diags.push(not_supported(
                    w.span,
                    format!("the variable-length array `{}` is declared where pragma2cuda cannot allocate it", w.name),
                ));
            }
            CType {
                base: ty.base.clone(),
                derivs: vec![Deriv::Pointer { quals: vec![] }],
            }
        } else {
            ty
        };
        staged.push(Staged {
            vla_extent,
            decl_start,
            assert_size: layout::depends_on_macro(&ty, &cx.consts),
            name: w.name,
            ty,
            span: w.span,
            region_var: w.region_var,
            layout: lays[k],
            home: st.homes[k],
            declarator,
            init,
            decl_end,
            forks: w.forks,
            why: if vla[k] {
                format!("{}; a variable-length array: the frame holds its address, its elements are on the device heap", w.why)
            } else {
                w.why
            },
        });
    }
    for (fi, f) in forks.iter_mut().enumerate() {
        let mut s = fork_wants[fi].clone();
        s.sort();
        s.dedup();
        f.staged = s;
        f.mapped_scalars = fork_mapped[fi].clone();
    }
    // Each reduction combines into a variable the team shares: the team's
    // frame, or a mapped scalar (then one team, or several would race).
    let one_team = matches!(blocks, Size::Fixed(1));
    for f in &forks {
        for r in f.reductions.iter().chain(
            inner_loops
                .iter()
                .filter(|(id, _)| *id == f.id)
                .flat_map(|(_, w)| w.reductions.iter()),
        ) {
            let in_frame = f.staged.iter().any(|&si| staged[si].name == r.name);
            let mapped = f
                .mapped_scalars
                .iter()
                .any(|&vi| vars[vi].sym.name == r.name);
            if mapped && !one_team {
                cx.diags.push(
                    not_supported(
                        r.span,
                        format!(
                            "a reduction into the mapped variable `{}` from a region of several teams is not supported yet",
                            r.name
                        ),
                    )
                    .with_note("every team would combine its result into the same device copy")
                    .with_help("reduce into a variable declared in the region, then combine the teams' values"),
                );
            } else if !in_frame && !mapped {
                cx.diags.push(
                    not_supported(
                        r.span,
                        format!(
                            "a reduction over `{}`, which the threads of the parallel region do not share, is not supported yet",
                            r.name
                        ),
                    )
                    .with_note("lowered: variables of the sequential part, variables the region writes, mapped scalars"),
                );
            }
        }
    }
    let team_array_reds = array_generic::check(
        std::mem::take(&mut cx.array_reds),
        &forks,
        &inner_loops,
        &staged,
        &vars,
        one_team,
        &team_arrays,
        cx.diags,
    );
    // The host sizes the copies' area: bounds it can evaluate at the launch.
    let team_array_reds =
        super::reduction::array_team_area::host_sized(team_array_reds, &locals, &written, cx.diags);
    let scopes: Vec<Vec<ScopeVar>> = forks
        .iter()
        .map(|f| {
            fork_scope(
                tree,
                text,
                model_of(kind),
                kind,
                f,
                &inner_loops,
                &staged,
                &vars,
            )
        })
        .collect();
    for (f, v) in forks.iter_mut().zip(scopes) {
        f.vars = v;
    }
    super::privarray::master_privates_in_forks(&master_loops, &forks, text, cx.diags);
    if kind == GenKind::OmpParallel {
        for v in &vars {
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
    collect_locals(stmt, text, &forks, &staged, &mut locals);

    // Runtime queries.
    let mut rc = Vec::new();
    runtime_calls(stmt, text, &mut rc);
    let calls = rc
        .into_iter()
        .map(|(s, c)| {
            let in_fork = forks
                .iter()
                .any(|f| s.within(Span::new(f.pragma.start, f.stmt.end)));
            (s, c, in_fork)
        })
        .collect();

    let construct_arrays = array_generic::construct_arrays(&vars, team_reds.len(), cx.diags);
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
    };
    let array_privates = super::privarray::generic_copies(&vars, kind, &blocks, cx.diags);
    let red_maps: Vec<_> = team_reds
        .iter()
        .map(|x| super::target_parallel_red::result_map(&vars, &x.name))
        .collect();
    Some(Region {
        model: d.model,
        construct: d.name.clone(),
        // A `target` whose block is a `teams` construct names both pragmas.
        pragma_text: match teams {
            Some(t) => format!(
                "{} {}",
                super::build::pragma_one_line(file.slice(d.span)),
                super::build::pragma_one_line(file.slice(t.directive.span))
            ),
            None => super::build::pragma_one_line(file.slice(d.span)),
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
            .map(|(rid, x)| super::ir::Reduction {
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
