//! Orphaned parallel constructs in functions called from offloaded regions,
//! and the clauses their team honours.

use super::c::{CType, CanonLoop};
use super::generic::GenRed;
use crate::source::Span;
use std::collections::BTreeSet;

/// A variable of the function that an orphaned region uses: its slot in the
/// orphan frame.
#[derive(Clone, Debug)]
pub struct OrphanVar {
    pub name: String,
    /// The type of the slot (parameters decayed, qualifiers dropped).
    pub ty: CType,
    pub offset: u64,
    /// Written in the region (or an array): copied back after the join.
    pub copy_back: bool,
    /// The size depends on a macro: the outlined body asserts it.
    pub assert_size: Option<u64>,
}

/// One orphaned parallel region that forks when the master reaches it.
#[derive(Clone, Debug)]
pub struct Orphan {
    pub id: u32,
    pub function: String,
    pub pragma: Span,
    pub stmt: Span,
    pub line: usize,
    /// The pragma on one line.
    pub construct: String,
    pub num_threads: Option<String>,
    pub if_cond: Option<String>,
    /// `parallel for`: the loop, with the clauses (privatization,
    /// reduction, schedule) of the combined construct.
    pub lp: Option<OLoop>,
    /// `parallel`: its privatized variables and reductions.
    pub privs: Vec<OPriv>,
    pub reds: Vec<GenRed>,
    /// `parallel`: the constructs nested in its block.
    pub inner: Vec<Inner>,
    pub vars: Vec<OrphanVar>,
    /// `omp_get_thread_num()` (true) and `omp_get_num_threads()` (false)
    /// calls in the statement: the team's values in the outlined body.
    pub rt_calls: Vec<(Span, bool)>,
    /// The end of the function's definition: the outlined body follows it.
    pub fn_end: usize,
    /// The outlined body's name (chosen by the driver's namer).
    pub outlined: String,
    /// Device variables (`declare target` globals) that are loop variables
    /// of its worksharing loops: the team-of-one path declares a local of
    /// the name and type (`lower::orphan_shadow`).
    pub shadows: Vec<(String, CType)>,
}

/// Every orphaned region of the file.
#[derive(Clone, Debug, Default)]
pub struct OrphanPlan {
    pub orphans: Vec<Orphan>,
    /// Bytes of the orphan frame: the largest region's variables.
    pub frame_bytes: u64,
    /// Functions that reach an orphaned region through calls (themselves
    /// included): kernels calling one must say whether a master can fork.
    pub callers: BTreeSet<String>,
}

/// How a worksharing loop's flattened iterations go to the team's threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chunk {
    /// No `schedule` clause: iteration `i` to thread `i % team` (adjacent
    /// threads touch adjacent iterations, which coalesces on the GPU).
    Cyclic,
    /// `schedule(static)`: one contiguous chunk of `ceil(trips / team)`
    /// iterations per thread, in thread order (OpenMP 5.2 11.5.3).
    Block,
    /// `schedule(static, c)`, and `dynamic` / `guided` / `auto` / `runtime`
    /// (with their chunk, default 1): chunks of `c` round-robin. Any
    /// assignment is a valid dynamic or guided schedule; a static one is
    /// reproducible, which keeps the threads' results deterministic.
    Size(String),
}

/// A variable a construct privatizes.
#[derive(Clone, Debug)]
pub struct OPriv {
    pub name: String,
    pub ty: CType,
    /// `firstprivate`: the copy starts at the original's value.
    pub first: bool,
    /// `lastprivate`: the thread of the last iteration writes it back.
    pub last: bool,
}

/// A worksharing loop: the loop of `parallel for`, or a `for` nested in a
/// `parallel` block.
#[derive(Clone, Debug)]
pub struct OLoop {
    pub pragma: Span,
    pub stmt: Span,
    /// The pragma on one line.
    pub construct: String,
    pub nest: Vec<(CanonLoop, CType)>,
    pub privs: Vec<OPriv>,
    pub reds: Vec<GenRed>,
    pub chunk: Chunk,
    pub nowait: bool,
}

/// A construct nested in an orphaned `parallel` block.
#[derive(Clone, Debug)]
pub enum Inner {
    For(OLoop),
    /// `simd` without data clauses: each thread runs the loop in order.
    Simd {
        pragma: Span,
        construct: String,
    },
    /// `barrier`: the team's barrier.
    Barrier {
        pragma: Span,
    },
}
