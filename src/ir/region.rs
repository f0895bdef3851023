//! The region IR: one offloaded region, fully decided.

use super::c::{Arith, CType, CanonLoop, Model, RedOp, VarAttr};
use crate::source::Span;

/// How the loop's iterations are spread (the parallelism levels of seed 001:
/// gang = block, worker/vector = threads of a block).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// gang + worker/vector: all threads of all blocks share the iterations
    /// (grid-stride loop).
    GridStride,
    /// worker/vector without gang: every block runs all iterations, shared by
    /// its threads (gang-redundant; one block for `target parallel for`).
    BlockStride,
    /// gang only: one thread per block, blocks share the iterations.
    BlockOnly,
    /// no partitioning: each block's single thread runs the loop.
    Sequential,
}

/// `schedule` / `dist_schedule` on an SPMD loop (`lower::chunk`): worker w
/// runs the chunks w, w + W, ... of consecutive iterations (W workers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chunk {
    /// Chunks of this many iterations.
    Size(u64),
    /// One chunk per worker: the trip count over the workers, rounded up.
    Even,
    /// `dist_schedule(static, c)` on a grid-stride loop: chunks of c
    /// round-robin over the teams (blocks), each split by the team's
    /// threads.
    Teams(u64),
}

impl Schedule {
    pub fn as_str(self) -> &'static str {
        match self {
            Schedule::GridStride => {
                "grid-stride (gang + worker/vector: every thread of every block)"
            }
            Schedule::BlockStride => {
                "block-stride (worker/vector: every block runs all iterations over its threads)"
            }
            Schedule::BlockOnly => "block-only (gang: one thread per block)",
            Schedule::Sequential => "sequential (one thread per block runs every iteration)",
        }
    }

    pub fn levels(self) -> &'static [Level] {
        match self {
            Schedule::GridStride => &[Level::Gang, Level::Worker, Level::Vector],
            Schedule::BlockStride => &[Level::Worker, Level::Vector],
            Schedule::BlockOnly => &[Level::Gang],
            Schedule::Sequential => &[],
        }
    }
}

/// The parallelism levels of seed 001, outermost first (the derived order
/// sorts them so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Gang,
    Worker,
    Vector,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Gang => "GANG",
            Level::Worker => "WORKER",
            Level::Vector => "VECTOR",
        }
    }
}

/// A launch dimension: fixed, from a clause expression, or chosen at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Size {
    Fixed(u32),
    /// `clause(expr)`: evaluated on the host before the launch.
    Clause {
        clause: String,
        expr: String,
        span: Span,
    },
    /// Enough blocks for the trip count at the block's thread count.
    FromTrip,
}

/// One `reduction(op: var)` item of the region, in clause order.
#[derive(Clone, Debug)]
pub struct Reduction {
    pub var: String,
    pub ty: CType,
    pub arith: Arith,
    pub op: RedOp,
    /// How RESULT's device copy is mapped (`sharing::Attr::Reduction`):
    /// tofrom unless a map clause of the construct names the variable.
    pub map: super::c::MapKind,
    /// Reduction id (seed 001): its position among the region's reductions.
    pub rid: u32,
    pub span: Span,
}

/// One `reduction(op: a[lo:len])` or `reduction(op: arr)` item: a
/// one-dimensional array or section reduced element by element. One RID
/// covers the whole section.
#[derive(Clone, Debug)]
pub struct ArrayReduction {
    pub var: String,
    /// The variable's type (`T *` or `T [N]`).
    pub ty: CType,
    /// The element type.
    pub arith: Arith,
    pub op: RedOp,
    /// Host expressions of the section's start and length (the whole array:
    /// 0 and its extent).
    pub lo: String,
    pub len: String,
    /// The section as written (`a[lo:len]`, `h`).
    pub text: String,
    /// Reduction id: after the region's scalar reductions, in clause order.
    pub rid: u32,
    pub span: Span,
}

/// OpenMP `linear` on an SPMD loop (`lower::linear`): the variable (index
/// into `vars`, a lastprivate scalar) whose copy starts every iteration as
/// the original plus the iteration's number times `step` (C text, evaluated
/// on the host before the launch).
#[derive(Clone, Debug)]
pub struct Linear {
    pub var: usize,
    pub step: String,
}

/// One offloaded region.
#[derive(Clone, Debug)]
pub struct Region {
    pub model: Model,
    pub construct: String,
    /// The pragma text as written, continuation lines joined.
    pub pragma_text: String,
    pub pragma: Span,
    pub stmt: Span,
    pub function: String,
    /// Where kernels of this function are inserted (start of the function).
    pub function_start: usize,
    pub line: usize,
    pub kernel: String,
    pub schedule: Schedule,
    /// Chunks of the loop's workers (`schedule` / `dist_schedule`); `None`:
    /// one iteration at a time, round-robin.
    pub chunk: Option<Chunk>,
    /// The loop's partitioned levels (seed 001): OpenACC gang / worker /
    /// vector as written (implicit `gang vector`), OpenMP distribute = gang,
    /// parallel for = worker, simd = vector.
    pub levels: Vec<Level>,
    pub blocks: Size,
    /// The most blocks a launch sized from the trip count gets.
    pub max_blocks: u32,
    /// Threads per block, x (vector / OpenMP threads) and y (workers).
    pub threads_x: Size,
    pub threads_y: Size,
    /// The collapsed loop nest, outermost first.
    pub nest: Vec<CanonLoop>,
    /// Types of the loop variables, in nest order.
    pub nest_types: Vec<CType>,
    /// The nest is one loop over an integer of at most 32 bits (fewer than
    /// 2^32 iterations unless it overflows its variable), or a collapsed
    /// nest of such loops whose constant bounds give at most 2^31
    /// iterations: the kernel may count (and divide) in 32 bits
    /// (`lower::counter`, `emit/counter.rs`; the host checks the count).
    pub narrow_counter: bool,
    pub body: Span,
    /// Free names of the innermost body: the variables the kernel itself
    /// reads or writes (the others are only mapped, or feed host-side bounds).
    pub body_names: std::collections::BTreeSet<String>,
    /// Functions the innermost body calls (bounds and steps run on the host).
    pub calls: Vec<(String, Span)>,
    pub vars: Vec<VarAttr>,
    pub reductions: Vec<Reduction>,
    /// Reductions over arrays and array sections (their own scheme: see
    /// `reduction::arrays`).
    pub array_reductions: Vec<ArrayReduction>,
    /// Arrays and sections privatized with their elements (`privarray.rs`).
    pub array_privates: Vec<super::privarray::ArrayPrivate>,
    /// Local struct types the kernel names through a file-scope copy.
    pub local_types: Vec<super::localtype::Hoisted>,
    /// The reductions in the abstract form of seed 001, with the expansion
    /// chosen for each builtin (empty when the region has no reduction).
    pub red: super::reduction::RedForm,
    pub if_cond: Option<String>,
    /// OpenMP `device(n)` on a region with no host version: the check
    /// (`p2c_device_gpu_only`) the launch runs under, with no `else`.
    pub device_check: Option<String>,
    /// Notes shown in the plan (choices the user may want to know about).
    pub notes: Vec<String>,
    /// OpenMP `depend`: the `_Pragma("omp taskwait depend(...)")` run
    /// before the construct (`lower::asynchrony::omp_task_wait`, #21).
    pub task_wait: Option<String>,
    /// OpenMP `nowait` / `depend`: the target task (#21).
    pub omp_task: Option<super::data::OmpTask>,
    /// OpenMP `in_reduction` on a target construct: the
    /// `_Pragma("omp task if(0) in_reduction(...)")` that makes the host
    /// launch block an included task of the enclosing task reduction
    /// (`lower::asynchrony::omp_in_reduction_task`).
    pub reduction_task: Option<String>,
    /// OpenACC `async` / `wait`: the queue the region runs on (#21).
    pub acc_queue: Option<super::data::AccQueue>,
    /// Generic mode (a structured block with sequential code and nested
    /// parallel constructs); `None` for loop constructs (SPMD).
    pub generic: Option<Box<super::generic::Generic>>,
    /// `lastprivate(conditional:)`: per variable (index into `vars`), the
    /// assignments to it in the loop body.
    pub lastprivate_assigns: Vec<(usize, Vec<Span>)>,
    /// OpenMP `linear` variables of an SPMD loop (`lower::linear`).
    pub linear: Vec<Linear>,
    /// Atomic constructs in the region (`lower::atomic`), set by the driver.
    pub atomics: Vec<super::atomic::AtomicSite>,
    /// Loop constructs in an SPMD body that each thread runs in order:
    /// (pragma, the comment that replaces it); set by the driver.
    pub in_order: Vec<(Span, String)>,
    /// OpenACC `tile(...)`: the tile size of each loop of `nest`, outermost
    /// first (`lower::tile`); empty without the clause.
    pub tile: Vec<u64>,
}

impl Region {
    /// Threads per tile of OpenACC `tile(...)` (the product of the sizes).
    pub fn tile_threads(&self) -> u64 {
        tile_elements(&self.tile)
    }

    /// Whether the kernel refers to `v` (reductions always: the kernel
    /// combines into them; lastprivate ones too: the kernel stores them,
    /// even when the loop never names them).
    pub fn in_kernel(&self, v: &VarAttr) -> bool {
        matches!(
            v.attr,
            super::c::Attr::Reduction { .. }
                | super::c::Attr::ArrayReduction { .. }
                | super::c::Attr::Lastprivate { .. }
        ) || self.body_names.contains(&v.sym.name)
    }
}

/// The elements of one tile of these sizes (the threads of a tiled
/// region's block): their product, at least 1.
pub fn tile_elements(sizes: &[u64]) -> u64 {
    sizes.iter().product::<u64>().max(1)
}
