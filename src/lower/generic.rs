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

use super::ir::{Region, Schedule, Size};
use super::reduction::array_generic::{self, TeamArrayRed};
use super::staging::{self, Candidate, Home};
use super::team_limit::{self, RuntimeLimit};
use crate::diag::{codes, Diagnostic};
use crate::directives::{ClauseArgs, Directive, Model};
use crate::front::{Attached, CTree};
use crate::sema::layout::{self, Consts, Layout};
use crate::sema::loops::{self, int_literal, CanonLoop};
use crate::sema::sharing::{self, Attr, RedOp};
use crate::sema::{symbols, uses, Arith, CType, Deriv, Storage};
use crate::source::{SourceFile, Span};
use std::collections::BTreeSet;
use tree_sitter::Node;

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

fn span_of(n: Node<'_>) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

fn inside(inner: Span, outer: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

fn node_at<'t>(tree: &'t CTree, span: Span) -> Option<Node<'t>> {
    let root = tree.root()?;
    let mut n = root.descendant_for_byte_range(span.start, span.end)?;
    while n.start_byte() == span.start && n.end_byte() == span.end {
        match n.parent() {
            Some(p) if p.start_byte() == span.start && p.end_byte() == span.end => n = p,
            _ => break,
        }
    }
    Some(n)
}

fn not_supported(at: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(codes::NOT_SUPPORTED, at, msg).with_label("not lowered yet")
}

/// What a nested directive is in this region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Fork(Spread),
    MasterLoop,
    InnerLoop,
    Strip(&'static str),
    Barrier,
    Unsupported,
}

fn acc_levels(d: &Directive) -> (bool, bool, bool, bool) {
    let has = |n: &str| d.clause(n).is_some();
    (has("gang"), has("worker"), has("vector"), has("seq"))
}

fn role(d: &Directive, kind: GenKind, in_fork: bool, fork_is_loop: bool) -> Role {
    match d.model {
        Model::Omp => {
            let n = d.name.as_str();
            if in_fork {
                match n {
                    "for" | "for simd" | "loop" if !fork_is_loop => Role::InnerLoop,
                    "barrier" => Role::Barrier,
                    "simd" => Role::Strip("simd: each thread runs its iterations in order"),
                    _ => Role::Unsupported,
                }
            } else {
                match n {
                    "parallel" | "parallel for" | "parallel for simd" => Role::Fork(Spread::Team),
                    "distribute parallel for" | "distribute parallel for simd" => {
                        Role::Fork(Spread::Grid)
                    }
                    "distribute" | "distribute simd" => Role::MasterLoop,
                    "simd" => Role::Strip("simd: the master runs the loop in order"),
                    "for" | "for simd" => {
                        Role::Strip("worksharing loop of a team of one thread: the master runs it")
                    }
                    "barrier" => {
                        Role::Strip("barrier of a team of one thread: nothing to wait for")
                    }
                    _ => Role::Unsupported,
                }
            }
        }
        Model::Acc => {
            if d.name != "loop" {
                return Role::Unsupported;
            }
            if kind == GenKind::AccSerial {
                return Role::Strip("serial: one thread runs every loop in order");
            }
            let (gang, worker, vector, seq) = acc_levels(d);
            if in_fork {
                return Role::Strip(
                    "loop nested in a partitioned loop: each thread runs it in order",
                );
            }
            if seq {
                return Role::Strip("seq: the gang's master runs the loop in order");
            }
            match (gang, worker || vector) {
                (true, true) => Role::Fork(Spread::Grid),
                (false, true) => Role::Fork(Spread::Team),
                (true, false) => Role::MasterLoop,
                (false, false) => {
                    if d.clause("auto").is_some() {
                        Role::Strip("auto: the gang's master runs the loop in order")
                    } else {
                        Role::Fork(Spread::Grid)
                    }
                }
            }
        }
    }
}

/// Clauses lowered on the generic compute construct itself.
fn top_clause_ok(model: Model, name: &str) -> bool {
    match model {
        Model::Omp => matches!(
            name,
            "map"
                | "private"
                | "firstprivate"
                | "num_teams"
                | "thread_limit"
                | "num_threads"
                | "default"
                | "shared"
                | "proc_bind"
                | "defaultmap"
        ),
        Model::Acc => matches!(
            name,
            "copy"
                | "copyin"
                | "copyout"
                | "create"
                | "present"
                | "pcopy"
                | "pcopyin"
                | "pcopyout"
                | "pcreate"
                | "present_or_copy"
                | "present_or_copyin"
                | "present_or_copyout"
                | "present_or_create"
                | "num_gangs"
                | "num_workers"
                | "vector_length"
                | "private"
                | "firstprivate"
                | "default"
        ),
    }
}

/// Clauses lowered on nested constructs.
fn nested_clause_ok(model: Model, name: &str) -> bool {
    match model {
        Model::Omp => matches!(
            name,
            "num_threads"
                | "if"
                | "private"
                | "firstprivate"
                | "lastprivate"
                | "shared"
                | "default"
                | "proc_bind"
                | "collapse"
                | "schedule"
                | "dist_schedule"
                | "nowait"
                | "simdlen"
                | "safelen"
                | "order"
        ),
        Model::Acc => matches!(
            name,
            "gang"
                | "worker"
                | "vector"
                | "seq"
                | "auto"
                | "independent"
                | "collapse"
                | "private"
                | "tile"
        ),
    }
}

struct Ctx<'a> {
    file: &'a SourceFile,
    tree: &'a CTree,
    consts: Consts,
    diags: &'a mut Vec<Diagnostic>,
    /// Array reductions of nested constructs (`reduction::array_generic`).
    array_reds: Vec<TeamArrayRed>,
}

/// Reads `collapse(n)` and analyses the loop nest at `stmt`.
fn loop_nest(
    cx: &mut Ctx<'_>,
    d: &Directive,
    stmt: Node<'_>,
) -> Option<(Vec<CanonLoop>, Vec<CType>)> {
    let depth = match d.clause("collapse").and_then(|c| c.expr()) {
        None => super::tile::team_depth(d, cx.diags)?,
        Some(e) => match int_literal(&e.text) {
            Some(v) if (1..=8).contains(&v) => v as usize,
            _ => {
                cx.diags.push(
                    Diagnostic::new(
                        codes::BAD_CLAUSE_ARG,
                        e.span,
                        "collapse takes a constant positive integer",
                    )
                    .with_label("not a constant from 1 to 8"),
                );
                return None;
            }
        },
    };
    let mut nest = Vec::new();
    let mut node = stmt;
    for level in 0..depth {
        match loops::analyse(node, &cx.file.text) {
            Ok(l) => nest.push(l),
            Err(e) => {
                cx.diags.push(e);
                return None;
            }
        }
        if level + 1 < depth {
            match loops::nested_loop(node) {
                Some(n) => node = n,
                None => {
                    cx.diags.push(
                        Diagnostic::new(
                            codes::NO_ASSOCIATED_LOOP,
                            span_of(node),
                            format!(
                                "collapse({depth}) needs {depth} perfectly nested loops; found {}",
                                level + 1
                            ),
                        )
                        .with_label("this body is not a single for loop"),
                    );
                    return None;
                }
            }
        }
    }
    let root = cx.tree.root()?;
    let syms = symbols::visible_at(root, &cx.file.text, stmt);
    let mut types = Vec::new();
    for l in &nest {
        let ty = match &l.declared_type {
            Some(t) => t.clone(),
            None => match syms.get(&l.var) {
                Some(s) if s.ty.is_scalar() => s.ty.clone(),
                _ => {
                    cx.diags.push(
                        Diagnostic::new(
                            codes::UNDECLARED,
                            l.var_span,
                            format!("loop variable `{}` is not declared", l.var),
                        )
                        .with_label("no declaration visible"),
                    );
                    return None;
                }
            },
        };
        types.push(CType {
            base: ty.unqualified_base(),
            derivs: vec![],
        });
    }
    // Non-rectangular: the rectangular prefix collapses, the other loops
    // run in order (lower/collapse.rs) when they declare their variables
    // (one declared outside would be shared by the team).
    let kept = super::collapse::rectangular_prefix(&nest);
    if let Some(l) = nest[kept..].iter().find(|l| l.declared_type.is_none()) {
        cx.diags.push(not_supported(
            l.span,
            "a non-rectangular collapsed loop nest whose inner loop variable is declared outside its loop is not supported yet in a region with a structured block",
        ));
        return None;
    }
    nest.truncate(kept);
    types.truncate(kept);
    Some((nest, types))
}

/// private / firstprivate / lastprivate items of a nested construct.
fn privates(cx: &mut Ctx<'_>, d: &Directive, at: Node<'_>, body: Option<Node<'_>>) -> Vec<PrivVar> {
    let mut out = Vec::new();
    let Some(root) = cx.tree.root() else {
        return out;
    };
    let syms = symbols::visible_at(root, &cx.file.text, at);
    for c in &d.clauses {
        let kind = match c.name.as_str() {
            "private" => PrivKind::Private,
            "firstprivate" => PrivKind::Firstprivate,
            "lastprivate" => PrivKind::Lastprivate {
                conditional: c.modifiers().iter().any(|m| m.text == "conditional"),
            },
            _ => continue,
        };
        for item in c.items() {
            let lastp = matches!(kind, PrivKind::Lastprivate { .. });
            if !item.path.is_empty() || (lastp && !item.sections.is_empty()) {
                cx.diags.push(not_supported(
                    item.span,
                    "struct members, and array sections in lastprivate, are not supported yet",
                ));
                continue;
            }
            let Some(sym) = syms
                .get(&item.name)
                .filter(|s| !s.is_typedef && !s.ty.is_function())
            else {
                cx.diags.push(
                    Diagnostic::new(
                        codes::UNDECLARED,
                        item.name_span,
                        format!("`{}` is not a declared variable", item.name),
                    )
                    .with_label("not declared before this directive"),
                );
                continue;
            };
            if kind == (PrivKind::Lastprivate { conditional: true })
                && !super::gen_lastprivate::type_ok(
                    &sym.ty.unqualified_base(),
                    sym.ty.derivs.is_empty(),
                    &syms,
                )
            {
                cx.diags
                    .push(super::gen_lastprivate::type_refused(item.span, &item.name));
                continue;
            }
            if matches!(kind, PrivKind::Lastprivate { .. }) {
                if let Err(e) = crate::sema::lastprivate_array::check(item, sym, false, &syms) {
                    cx.diags.push(*e);
                    continue;
                }
            }
            let section = if item.sections.is_empty() {
                None
            } else {
                let first = kind == PrivKind::Firstprivate;
                match super::privarray::nested_section(d, first, item, sym, &syms, cx.diags) {
                    Some(b) => Some(b),
                    None => continue,
                }
            };
            let assigns = match (kind, body) {
                (PrivKind::Lastprivate { conditional: true }, Some(b)) => {
                    let mut v = Vec::new();
                    assignments_to(b, &cx.file.text, &item.name, &mut v);
                    v
                }
                _ => vec![],
            };
            out.push(PrivVar {
                name: item.name.clone(),
                ty: CType {
                    base: sym.ty.unqualified_base(),
                    derivs: sym.ty.derivs.clone(),
                },
                kind,
                span: item.span,
                assigns,
                section,
            });
        }
    }
    out
}

/// `reduction` items of a nested construct. `private_scope`: the block of
/// the enclosing parallel region (for a worksharing loop inside one), whose
/// own variables are private to each thread and cannot be reduced over the
/// team; `fork_privates` are the region's privatized variables.
fn reductions(
    cx: &mut Ctx<'_>,
    d: &Directive,
    at: Node<'_>,
    private_scope: Option<Span>,
    fork_privates: &[String],
) -> Vec<GenRed> {
    let mut out: Vec<GenRed> = Vec::new();
    let Some(root) = cx.tree.root() else {
        return out;
    };
    let syms = symbols::visible_at(root, &cx.file.text, at);
    for c in d.clauses.iter().filter(|c| c.name == "reduction") {
        let mods = c.modifiers();
        let op = match mods {
            [m] => sharing::red_op(&m.text),
            _ => None,
        };
        let Some(op) = op else {
            let (span, text) = mods
                .last()
                .map(|m| (m.span, m.text.as_str()))
                .unwrap_or((c.span, "?"));
            let msg = if mods.len() > 1 {
                "reduction modifiers (`inscan`, `task`, `default`) inside an offloaded region are not supported yet".to_string()
            } else {
                format!("reduction operator `{text}` is not supported yet")
            };
            cx.diags
                .push(not_supported(span, msg).with_note(
                    "supported: `+`, `-`, `*`, `max`, `min`, `&`, `|`, `^`, `&&`, `||`",
                ));
            continue;
        };
        for item in c.items() {
            if !item.path.is_empty() {
                cx.diags.push(not_supported(
                    item.span,
                    "struct members in reduction clauses are not supported yet",
                ));
                continue;
            }
            let Some(sym) = syms
                .get(&item.name)
                .filter(|s| !s.is_typedef && !s.ty.is_function())
            else {
                cx.diags.push(
                    Diagnostic::new(
                        codes::UNDECLARED,
                        item.name_span,
                        format!("`{}` is not a declared variable", item.name),
                    )
                    .with_label("not declared before this directive"),
                );
                continue;
            };
            let (arith, is_array) = match sharing::reduction_type(item, sym, op, &syms) {
                Ok(x) => x,
                Err(e) => {
                    cx.diags.push(*e);
                    continue;
                }
            };
            let private_here = private_scope.is_some_and(|s| inside(sym.decl_span, s))
                || fork_privates.contains(&item.name);
            if private_here {
                cx.diags.push(
                    not_supported(
                        item.span,
                        format!(
                            "a reduction over `{}`, which is private to each thread of the enclosing parallel region, is not supported yet",
                            item.name
                        ),
                    )
                    .with_note("the variable of a reduction on a worksharing construct must be shared by the team"),
                );
                continue;
            }
            if out.iter().any(|r| r.name == item.name)
                || cx
                    .array_reds
                    .iter()
                    .any(|r| r.construct == d.span && r.var == item.name)
            {
                cx.diags.push(not_supported(
                    item.span,
                    format!(
                        "`{}` in two reduction clauses of one construct is not supported yet",
                        item.name
                    ),
                ));
                continue;
            }
            if is_array {
                match TeamArrayRed::from_item(d.span, item, sym, op, arith) {
                    Ok(a) => cx.array_reds.push(a),
                    Err(e) => cx.diags.push(*e),
                }
                continue;
            }
            out.push(GenRed {
                name: item.name.clone(),
                ty: CType {
                    base: sym.ty.unqualified_base(),
                    derivs: vec![],
                },
                arith,
                op,
                span: item.span,
            });
        }
    }
    out
}

/// Assignments (`x = e`, `x op= e`, `x++`) to the plain variable `name` in
/// `n`, not counting those in scopes that declare their own `name`.
pub fn assignments_to(n: Node<'_>, text: &str, name: &str, out: &mut Vec<Span>) {
    let t = |n: Node<'_>| text.get(n.start_byte()..n.end_byte()).unwrap_or("");
    match n.kind() {
        "assignment_expression" | "update_expression" => {
            let target = n
                .child_by_field_name("left")
                .or_else(|| n.child_by_field_name("argument"));
            if target.is_some_and(|x| x.kind() == "identifier" && t(x) == name) {
                out.push(span_of(n));
            }
        }
        "compound_statement" => {
            // A block that declares its own `name` hides the variable.
            let mut c = n.walk();
            let declares = n.named_children(&mut c).any(|ch| {
                ch.kind() == "declaration" && {
                    let mut v = Vec::new();
                    symbols::declared_by(ch, text, Storage::Local, &mut v);
                    v.iter().any(|s| s.name == name)
                }
            });
            if declares {
                return;
            }
        }
        _ => {}
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        assignments_to(k, text, name, out);
    }
}

/// Names assigned as a whole (`x = e`, `x += e`, `x++`) in `n`.
fn direct_writes(n: Node<'_>, text: &str, out: &mut BTreeSet<String>) {
    if matches!(n.kind(), "assignment_expression" | "update_expression") {
        let mut target = n
            .child_by_field_name("left")
            .or_else(|| n.child_by_field_name("argument"));
        while let Some(t) = target.filter(|t| t.kind() == "parenthesized_expression") {
            target = t.named_child(0);
        }
        if let Some(t) = target.filter(|t| t.kind() == "identifier") {
            out.insert(
                text.get(t.start_byte()..t.end_byte())
                    .unwrap_or("")
                    .to_string(),
            );
        }
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        direct_writes(k, text, out);
    }
}

/// Names whose address is taken (`&x`) in `n`: a callee may write them.
fn address_taken(n: Node<'_>, text: &str, out: &mut BTreeSet<String>) {
    if n.kind() == "pointer_expression" {
        let op = n.child_by_field_name("operator");
        let arg = n.child_by_field_name("argument");
        if let (Some(op), Some(arg)) = (op, arg) {
            if text.get(op.start_byte()..op.end_byte()) == Some("&") && arg.kind() == "identifier" {
                out.insert(
                    text.get(arg.start_byte()..arg.end_byte())
                        .unwrap_or("")
                        .to_string(),
                );
            }
        }
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        address_taken(k, text, out);
    }
}

/// Calls of `omp_*` queries with no argument in `n`.
fn runtime_calls(n: Node<'_>, text: &str, out: &mut Vec<(Span, RtCall)>) {
    if n.kind() == "call_expression" {
        let f = n.child_by_field_name("function");
        let args = n.child_by_field_name("arguments");
        if let (Some(f), Some(a)) = (f, args) {
            if f.kind() == "identifier" && a.named_child_count() == 0 {
                if let Some(c) =
                    RtCall::from_name(text.get(f.start_byte()..f.end_byte()).unwrap_or(""))
                {
                    out.push((span_of(n), c));
                    return;
                }
            }
        }
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        runtime_calls(k, text, out);
    }
}

/// The end of the scope a declaration at `decl` belongs to.
fn scope_end(tree: &CTree, decl: Span, fallback: usize) -> usize {
    let Some(mut n) = node_at(tree, decl) else {
        return fallback;
    };
    while let Some(p) = n.parent() {
        if matches!(p.kind(), "compound_statement" | "for_statement") {
            return p.end_byte();
        }
        n = p;
    }
    fallback
}

/// The declarator (as written in the declaration) that declares the name
/// at `name`, and its initializer.
fn declarator_site(tree: &CTree, decl: Span, name: Span) -> Option<(Span, Option<Span>)> {
    let d = node_at(tree, decl)?;
    let d = if d.kind() == "declaration" {
        d
    } else {
        let mut n = d;
        loop {
            if n.kind() == "declaration" {
                break n;
            }
            n = n.parent()?;
        }
    };
    let mut c = d.walk();
    let decls: Vec<Node<'_>> = d.children_by_field_name("declarator", &mut c).collect();
    let top = decls.into_iter().find(|x| inside(name, span_of(*x)))?;
    if top.kind() == "init_declarator" {
        let init = top.child_by_field_name("value").map(span_of);
        Some((span_of(top), init))
    } else {
        Some((span_of(top), None))
    }
}

/// `{ #pragma omp teams ... stmt }`: a block whose only statement is the
/// construct `n` (closely nested: nothing else runs in the block).
pub fn only_statement(tree: &CTree, block: Option<Span>, n: &Attached) -> bool {
    let Some(b) = block.and_then(|b| node_at(tree, b)) else {
        return false;
    };
    if b.kind() != "compound_statement" {
        return false;
    }
    let mut c = b.walk();
    let stmts: Vec<Node<'_>> = b
        .named_children(&mut c)
        .filter(|x| x.kind() != "comment")
        .collect();
    stmts.len() == 1
        && Some(span_of(stmts[0])) == n.stmt
        && n.directive.span.start > b.start_byte()
        && n.directive.span.end <= stmts[0].start_byte()
}

/// Variables of the host that the `num_threads` and `if` clauses of nested
/// constructs name (the master evaluates them at the fork, so the region
/// captures them like the block's own free variables; pragmas are masked
/// out of the C tree, so `free_identifiers` does not see them). Names
/// declared inside the block are the sequential part's own.
fn clause_uses(
    tree: &CTree,
    text: &str,
    root: Node<'_>,
    block: Span,
    nested: &[&Attached],
    used: &mut Vec<uses::Use>,
) {
    for n in nested {
        let Some(at) = n.stmt.and_then(|s| node_at(tree, s)) else {
            continue;
        };
        let mut syms = None;
        for c in &n.directive.clauses {
            if !matches!(c.name.as_str(), "num_threads" | "if") {
                continue;
            }
            let Some(e) = c.expr() else { continue };
            let b = e.text.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let name = &e.text[start..i];
                if used.iter().any(|u| u.name == name) {
                    continue;
                }
                let syms = syms.get_or_insert_with(|| symbols::visible_at(root, text, at));
                let Some(sym) = syms.get(name) else { continue };
                if sym.is_typedef || sym.ty.is_function() || inside(sym.decl_span, block) {
                    continue;
                }
                used.push(uses::Use {
                    name: name.to_string(),
                    span: Span::new(e.span.start + start, e.span.start + i),
                    written: false,
                });
            }
        }
    }
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
        let fork_here = forks.iter().find(|f| {
            inside(nd.span, Span::new(f.pragma.start, f.stmt.end)) && f.pragma != nd.span
        });
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
                    && master_loops.iter().any(|w| inside(nd.span, w.stmt))))
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
                                    .is_some_and(|s| inside(s.decl_span, *fstmt));
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
            .find(|f| inside(*sp, Span::new(f.pragma.start, f.stmt.end)) && f.pragma != *sp);
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
            if inside(sym.decl_span, block) {
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
                .any(|f| inside(s, Span::new(f.pragma.start, f.stmt.end)));
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

/// The variables a fork references and how each is shared.
#[allow(clippy::too_many_arguments)]
fn fork_scope(
    tree: &CTree,
    text: &str,
    model: Model,
    kind: GenKind,
    f: &Fork,
    inner_loops: &[(u32, WsLoop)],
    staged: &[Staged],
    vars: &[sharing::VarAttr],
) -> Vec<ScopeVar> {
    let mut out: Vec<ScopeVar> = Vec::new();
    let (Some(root), Some(fnode)) = (tree.root(), node_at(tree, f.stmt)) else {
        return out;
    };
    let (fused, _) = uses::free_identifiers(fnode, text);
    let fsyms = symbols::visible_at(root, text, fnode);
    let loops: Vec<&WsLoop> =
        f.ws.iter()
            .chain(
                inner_loops
                    .iter()
                    .filter(|(id, _)| *id == f.id)
                    .map(|(_, w)| w),
            )
            .collect();
    let privs: Vec<&PrivVar> = f
        .privates
        .iter()
        .chain(loops.iter().flat_map(|w| w.privates.iter()))
        .collect();
    let shared_rule = match model {
        Model::Omp => "parallel construct without default clause: shared",
        Model::Acc => "declared outside the partitioned loop: one copy per gang, visible to its workers and vector lanes",
    };
    let mut push = |v: ScopeVar| {
        if !out.iter().any(|o| o.name == v.name) {
            out.push(v);
        }
    };
    for r in f
        .reductions
        .iter()
        .chain(loops.iter().flat_map(|w| w.reductions.iter()))
    {
        push(ScopeVar {
            name: r.name.clone(),
            ty: r.ty.clone(),
            attribute: format!("reduction({})", r.op.as_str()),
            home: VarHome::Register(
                "each thread's copy; the team's combined value goes into the shared variable",
            ),
            rule: "explicit clause",
            kind: RuleKind::Explicit,
            span: r.span,
            decl: None,
        });
    }
    for p in &privs {
        push(ScopeVar {
            name: p.name.clone(),
            ty: p.ty.clone(),
            attribute: p.kind.as_str().to_string(),
            home: VarHome::Register("each thread's copy"),
            rule: "explicit clause",
            kind: RuleKind::Explicit,
            span: p.span,
            decl: None,
        });
    }
    for w in &loops {
        for (l, ty) in w.nest.iter().zip(&w.types) {
            push(ScopeVar {
                name: l.var.clone(),
                ty: ty.clone(),
                attribute: "private".into(),
                home: VarHome::Register("each thread's copy"),
                rule: "loop iteration variable (predetermined private)",
                kind: RuleKind::Predetermined,
                span: l.var_span,
                decl: None,
            });
        }
    }
    for u in &fused {
        let Some(sym) = fsyms.get(&u.name) else {
            continue;
        };
        if sym.is_typedef || sym.ty.is_function() {
            continue;
        }
        if let Some(si) = staged
            .iter()
            .position(|s| !s.region_var && s.span == sym.span)
        {
            push(ScopeVar {
                name: u.name.clone(),
                ty: sym.ty.clone(),
                attribute: "shared".into(),
                home: VarHome::Staged(si),
                rule: shared_rule,
                kind: RuleKind::Implicit,
                span: u.span,
                decl: Some(sym.span),
            });
            continue;
        }
        let Some(v) = vars.iter().find(|v| v.sym.name == u.name) else {
            continue;
        };
        let si = staged
            .iter()
            .position(|s| s.region_var && s.name == v.sym.name);
        let (attribute, home, rule, rk) = match (&v.attr, si, kind) {
            (Attr::Mapped { .. }, _, _) => (
                "shared".to_string(),
                VarHome::Device,
                shared_rule,
                RuleKind::Implicit,
            ),
            (_, Some(si), _) => (
                "shared".to_string(),
                VarHome::Staged(si),
                shared_rule,
                RuleKind::Implicit,
            ),
            (Attr::ArrayPrivate { first, .. }, None, k) => {
                super::privarray::scope_row(*first, k, v.rule, shared_rule)
            }
            // An array reduction moved onto the construct (`reduction/array_over_teams.rs`).
            (Attr::ArrayReduction { .. }, None, _) => (
                "shared".to_string(),
                VarHome::Copies("the team's copy of the compute construct's reduction, a slice of a per-launch area"),
                shared_rule,
                RuleKind::Implicit,
            ),
            (Attr::Firstprivate, None, GenKind::OmpParallel) => (
                "firstprivate".to_string(),
                VarHome::Register("kernel parameter: each thread's copy"),
                v.rule,
                RuleKind::Implicit,
            ),
            (Attr::Private, None, GenKind::OmpParallel) => (
                "private".to_string(),
                VarHome::Register("each thread's copy"),
                v.rule,
                RuleKind::Explicit,
            ),
            _ => (
                "shared".to_string(),
                VarHome::Register(
                    "kernel parameter: the region never writes it, so every thread holds its value",
                ),
                shared_rule,
                RuleKind::Implicit,
            ),
        };
        push(ScopeVar {
            name: u.name.clone(),
            ty: v.sym.ty.clone(),
            attribute,
            home,
            rule,
            kind: rk,
            span: u.span,
            decl: None,
        });
    }
    // Variables declared inside the construct.
    let mut declared = Vec::new();
    declared_in(fnode, text, &mut declared);
    for s in declared {
        push(ScopeVar {
            name: s.name.clone(),
            ty: s.ty.clone(),
            attribute: "private".into(),
            home: VarHome::Register("each thread's copy"),
            rule: "declared inside the construct (predetermined private)",
            kind: RuleKind::Predetermined,
            span: s.span,
            decl: Some(s.span),
        });
    }
    out
}

/// The node of `span` (for other lowering modules).
pub fn node_in(tree: &CTree, span: Span) -> Option<Node<'_>> {
    node_at(tree, span)
}

/// Every variable declared in `n` (declarations and for-loop initializers).
pub fn declared_in(n: Node<'_>, text: &str, out: &mut Vec<symbols::Symbol>) {
    if n.kind() == "declaration" {
        let mut v = Vec::new();
        symbols::declared_by(n, text, Storage::Local, &mut v);
        out.extend(
            v.into_iter()
                .filter(|s| !s.is_typedef && !s.ty.is_function()),
        );
        return;
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        declared_in(k, text, out);
    }
}

fn kind_is_parallel(k: GenKind) -> bool {
    k == GenKind::OmpParallel
}

/// The declaration that declares the name at `name` (a symbol's span).
fn symbols_decl_span(tree: &CTree, name: Span) -> Option<Span> {
    let mut n = node_at(tree, name)?;
    loop {
        if n.kind() == "declaration" {
            return Some(span_of(n));
        }
        n = n.parent()?;
    }
}

/// Variables declared in the sequential part (outside every fork) that are
/// not staged: they live in the master's registers.
fn collect_locals(
    n: Node<'_>,
    text: &str,
    forks: &[Fork],
    staged: &[Staged],
    out: &mut Vec<Local>,
) {
    let sp = span_of(n);
    if forks.iter().any(|f| inside(sp, f.stmt)) {
        return;
    }
    if n.kind() == "declaration" {
        let mut v = Vec::new();
        symbols::declared_by(n, text, Storage::Local, &mut v);
        for s in v {
            if s.is_typedef || s.ty.is_function() {
                continue;
            }
            if staged.iter().any(|x| !x.region_var && x.span == s.span) {
                continue;
            }
            out.push(Local {
                name: s.name,
                ty: s.ty,
                span: s.span,
            });
        }
        return;
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        collect_locals(k, text, forks, staged, out);
    }
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

/// Threads of a fork per construct, for the plan.
pub fn fork_threads(g: &Generic, f: &Fork) -> String {
    let limit = match &g.runtime_limit {
        Some(r) => r.describe(),
        None => g.team_limit.to_string(),
    };
    let base = match &f.num_threads {
        Some(e) => format!("min(num_threads({e}), {limit})"),
        None => limit,
    };
    match &f.if_cond {
        Some(c) => format!("{base} if ({c}) else 1"),
        None => base,
    }
}

/// The generic-mode part of `--emit=plan`.
pub fn red_list(reds: &[GenRed]) -> String {
    reds.iter()
        .map(|r| format!("{}({}: {})", "reduction", r.op.as_str(), r.name))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn plan_lines(g: &Generic, file: &SourceFile) -> Vec<String> {
    let mut v = vec![format!("execution: {}", g.kind.describe())];
    match (&g.runtime_limit, g.forks.is_empty()) {
        (_, true) => {}
        (Some(r), false) => v.push(format!(
            "team:      {} threads per parallel region by default (evaluated on the host at the launch), that rounded up to whole warps per block",
            r.describe()
        )),
        (None, false) => v.push(format!(
            "team:      {} threads per parallel region by default, {} threads per block",
            g.team_limit, g.block_threads
        )),
    }
    for f in &g.forks {
        let what = match &f.ws {
            Some(w) => format!(", {}", w.spread.describe()),
            None => String::new(),
        };
        v.push(format!(
            "fork {}:    line {}: {}, threads {}{}{}",
            f.id,
            f.line,
            f.construct,
            fork_threads(g, f),
            what,
            if f.has_barrier {
                ", team barriers (with a partial last warp, its lanes beyond the team arrive too)"
            } else {
                ""
            }
        ));
        if !f.reductions.is_empty() {
            v.push(format!(
                "reduce:    fork {}: {}: a private copy per thread; warp trees, one value per warp in shared memory, thread 0 combines them into the variable before the join",
                f.id,
                red_list(&f.reductions)
            ));
        }
    }
    for w in &g.master_loops {
        v.push(format!(
            "loop:      line {}: {}, {}",
            file.line_of(w.pragma.start),
            w.construct,
            w.spread.describe()
        ));
    }
    for (id, w) in &g.inner_loops {
        v.push(format!(
            "loop:      line {} in fork {id}: {}, {}{}",
            file.line_of(w.pragma.start),
            w.construct,
            w.spread.describe(),
            if w.barrier_after {
                ", then a team barrier"
            } else {
                ""
            }
        ));
        if !w.reductions.is_empty() {
            v.push(format!(
                "reduce:    line {}: {}: a private copy per thread; warp trees, one value per warp in shared memory, thread 0 combines them into the variable {}",
                file.line_of(w.pragma.start),
                red_list(&w.reductions),
                if w.red_at_join {
                    "before the join"
                } else {
                    "between two team barriers"
                }
            ));
        }
    }
    super::gen_lastprivate::plan_lines(g, file, &mut v);
    for (sp, why) in &g.stripped {
        v.push(format!(
            "in order:  line {}: {} ({why})",
            file.line_of(sp.start),
            super::build::pragma_one_line(file.slice(*sp)).trim_start_matches("#pragma ")
        ));
    }
    for s in &g.staged {
        let home = match s.home {
            Home::Shared(o) => format!("shared memory at offset {o}"),
            Home::Global(o) => format!("global memory (team frame) at offset {o}"),
        };
        v.push(format!(
            "staged:    {} : {} -- {} B, align {}, {home} (forks {})",
            s.name,
            s.ty.type_name(),
            s.layout.size,
            s.layout.align,
            s.forks
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !g.staged.is_empty() {
        v.push(format!(
            "frame:     {} B shared (align {}), {} B global per team, budget {} B",
            g.shared_bytes, g.shared_align, g.global_bytes, g.budget
        ));
    }
    v
}

/// SPMD mode for split constructs: `target` (or `target teams`) whose
/// statement is, with no code between the directives, a loop construct
/// (`#pragma omp target` / `#pragma omp teams distribute parallel for` /
/// `for (...)`) is the combined construct. Returns it, attached to the loop,
/// when the combination is a loop construct lowered in SPMD mode.
pub fn spmd_merge(at: &Attached, nested: &[&Attached]) -> Option<Attached> {
    let d = &at.directive;
    if d.model != Model::Omp || !matches!(d.name.as_str(), "target" | "target teams") {
        return None;
    }
    let stmt = at.stmt?;
    let mut stacked: Vec<&Attached> = nested
        .iter()
        .copied()
        .filter(|n| n.stmt == Some(stmt) && n.directive.span.start > d.span.start)
        .collect();
    stacked.sort_by_key(|n| n.directive.span.start);
    if stacked.is_empty() {
        return None;
    }
    let mut m = d.clone();
    for n in &stacked {
        m.name = format!("{} {}", m.name, n.directive.name);
        m.clauses.extend(n.directive.clauses.iter().cloned());
        m.span = Span::new(m.span.start, n.directive.span.end);
    }
    if !matches!(
        super::build::classify(&m, true),
        super::build::Kind::Offload
    ) {
        return None;
    }
    Some(Attached {
        directive: m,
        stmt: Some(stmt),
        function: at.function.clone(),
    })
}

// --- reductions on the compute construct (across teams) -------------------

/// Whether `reduction` on this generic-mode construct is lowered over the
/// teams: OpenACC `parallel` / `serial` and OpenMP `target teams` (teams =
/// gang). A `target parallel` reduction is over the threads of its one
/// parallel region (`target_parallel_red`); `target` alone has no
/// reduction clause.
fn construct_red_ok(kind: GenKind) -> bool {
    matches!(
        kind,
        GenKind::AccParallel | GenKind::AccSerial | GenKind::OmpTeams
    )
}

/// The scalar reductions of the compute construct, in clause order.
fn construct_reductions(vars: &[sharing::VarAttr]) -> Vec<GenRed> {
    vars.iter()
        .filter_map(|v| match v.attr {
            Attr::Reduction { op, arith, .. } => Some(GenRed::of(v, op, arith)),
            _ => None,
        })
        .collect()
}

/// A reduction clause of a loop spread over the teams (`distribute`,
/// `distribute parallel for`, `acc loop gang [vector]`) is lowered when it
/// reduces only variables the compute construct reduces, with the same
/// operator: seed 001's "reductions on parallel", where the inner gang loop
/// gets no second setup and its threads combine into the team's copy. The
/// names, or the item and message to refuse with.
fn of_construct(
    c: &crate::directives::Clause,
    team: &[GenRed],
    arrays: &[String],
) -> Result<Vec<String>, (Span, String)> {
    let op = match c.modifiers() {
        [m] => sharing::red_op(&m.text),
        _ => None,
    };
    let mut names = Vec::new();
    // Arrays moved onto the construct (`reduction/array_over_teams.rs`).
    for item in c.items().iter().filter(|i| !arrays.contains(&i.name)) {
        match team.iter().find(|t| t.name == item.name && item.path.is_empty()) {
            Some(t) if Some(t.op) == op => names.push(item.name.clone()),
            Some(t) => {
                return Err((
                    item.span,
                    format!(
                        "a reduction over the teams on `{}` with another operator than the compute construct's `{}` is not supported yet",
                        item.name,
                        t.op.as_str()
                    ),
                ))
            }
            None => {
                return Err((
                    item.span,
                    format!(
                        "a reduction over the teams on `{}`, which the compute construct does not reduce, is not supported yet",
                        item.name
                    ),
                ))
            }
        }
    }
    Ok(names)
}

/// A loop spread over threads that assigns a variable the compute construct
/// reduces, with no reduction or privatizing clause of its own for it: its
/// threads would race on the team's copy, so the loop reduces it with the
/// construct's operator (what seed 001's inner gang loop does for an
/// explicit clause; an update `x = x op e` gives the same value as in order).
fn implicit_reductions(
    stmt: Node<'_>,
    text: &str,
    team: &[GenRed],
    explicit: &[GenRed],
    w: &WsLoop,
) -> Vec<GenRed> {
    let mut out = Vec::new();
    for t in team {
        if explicit.iter().any(|e| e.name == t.name)
            || w.privates.iter().any(|p| p.name == t.name)
            || w.nest.iter().any(|l| l.var == t.name)
        {
            continue;
        }
        let mut spans = Vec::new();
        assignments_to(stmt, text, &t.name, &mut spans);
        if let Some(first) = spans.first() {
            let mut r = t.clone();
            r.span = *first;
            out.push(r);
        }
    }
    out
}

/// `target` whose block is a `teams` construct with a reduction: OpenMP
/// makes a scalar firstprivate on `target` unless `target` maps it (the
/// rule that maps it tofrom is for combined constructs only), so the teams'
/// combined value would stay on the device; the merged lowering copies it
/// back, which is right only under `defaultmap(tofrom[: scalar])`. A
/// variable `target` maps explicitly is refused by sharing (in both `map`
/// and `reduction`); the others are refused here.
fn nested_teams_reductions(
    file: &SourceFile,
    target: &Directive,
    teams: &Attached,
    reds: &[GenRed],
    diags: &mut Vec<Diagnostic>,
) {
    let tofrom_scalars = target.clauses.iter().any(|c| {
        let t = file.slice(c.span);
        c.name == "defaultmap" && t.contains("tofrom") && (t.contains("scalar") || !t.contains(':'))
    });
    if tofrom_scalars {
        return;
    }
    for r in reds {
        let mapped = target
            .clauses
            .iter()
            .any(|c| c.name == "map" && c.items().iter().any(|i| i.name == r.name));
        if mapped {
            continue;
        }
        diags.push(
            not_supported(
                r.span,
                format!(
                    "a reduction on `teams` nested in `target` over `{}`, which `target` does not map (so it is firstprivate there and the result stays on the device), is not supported yet",
                    r.name
                ),
            )
            .with_secondary(teams.directive.span, "the teams construct")
            .with_help("write the combined `#pragma omp target teams ... reduction(...)`, which maps the variable tofrom"),
        );
    }
}

/// Gang loops of the block (`acc loop gang [vector]`, `distribute parallel
/// for`, `distribute simd`) reducing a scalar the construct maps tofrom,
/// where nothing else in the block names the scalar: seed 001's gang
/// reduction of a copy object. Its RED_FINI would follow each loop; as the
/// block does not read the variable between or after the loops, one
/// RED_FINI at the end of the construct gives the same value, so the
/// variable becomes a reduction on the construct (its attribute changes
/// from mapped to reduction, which maps it tofrom as well). Other gang-loop
/// reductions stay E0901 (a RED_FINI inside the block would need every
/// team to wait for every other).
fn promote_gang_loop_reductions(
    kind: GenKind,
    block: Span,
    nested: &[&Attached],
    vars: &mut [sharing::VarAttr],
    text: &str,
    syms: &std::collections::HashMap<String, symbols::Symbol>,
) -> Vec<GenRed> {
    // Loops directly in the block (not inside another nested construct).
    let top = |n: &Attached| {
        !nested.iter().any(|o| {
            o.directive.span != n.directive.span
                && o.stmt.is_some_and(|s| inside(n.directive.span, s))
        })
    };
    // name -> (operator, clause item, spans of the loops that reduce it)
    let mut cands: Vec<(
        String,
        Option<RedOp>,
        crate::directives::ListItem,
        Vec<Span>,
    )> = Vec::new();
    for n in nested.iter().filter(|n| top(n)) {
        let r = role(&n.directive, kind, false, false);
        if !matches!(r, Role::MasterLoop | Role::Fork(Spread::Grid)) {
            continue;
        }
        let Some(stmt) = n.stmt else { continue };
        let whole = Span::new(n.directive.span.start, stmt.end);
        for c in n.directive.clauses.iter().filter(|c| c.name == "reduction") {
            let op = match c.modifiers() {
                [m] => sharing::red_op(&m.text),
                _ => None,
            };
            for item in c.items().iter().filter(|i| i.path.is_empty()) {
                match cands.iter_mut().find(|x| x.0 == item.name) {
                    Some(x) => {
                        if x.1 != op {
                            x.1 = None;
                        }
                        x.3.push(whole);
                    }
                    None => cands.push((item.name.clone(), op, item.clone(), vec![whole])),
                }
            }
        }
    }
    let body = text.get(block.start..block.end).unwrap_or("");
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    for (name, op, item, loops) in cands {
        let Some(op) = op else { continue };
        let Some(v) = vars.iter_mut().find(|v| v.sym.name == name) else {
            continue;
        };
        if !matches!(
            v.attr,
            Attr::Mapped {
                kind: sharing::MapKind::ToFrom,
                ..
            }
        ) || !v.sym.ty.is_scalar()
        {
            continue;
        }
        let b = body.as_bytes();
        let elsewhere = body.match_indices(name.as_str()).any(|(i, _)| {
            let word = (i == 0 || !ident(b[i - 1]))
                && (i + name.len() >= b.len() || !ident(b[i + name.len()]));
            let at = block.start + i;
            word && !loops.iter().any(|l| at >= l.start && at < l.end)
        });
        if elsewhere {
            continue;
        }
        let Some(sym) = syms.get(&name) else { continue };
        let Ok((arith, false)) = sharing::reduction_type(&item, sym, op, syms) else {
            continue;
        };
        v.attr = Attr::Reduction {
            op,
            arith,
            map: sharing::MapKind::ToFrom,
        };
        out.push(GenRed {
            name: name.clone(),
            ty: CType {
                base: v.sym.ty.unqualified_base(),
                derivs: vec![],
            },
            arith,
            op,
            span: item.span,
        });
    }
    out
}
