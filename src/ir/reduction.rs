//! Reductions in the abstract form of seed 001 (builtins, levels, the
//! expansion chosen for each) and array reductions.

use super::c::{Arith, CType, RedOp};
use super::region::{Level, Size};
use crate::source::Span;

/// How RED_FINI combines across workers and gangs (`--reduction-strategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Worker: seed 000's tree (warp shuffles, warp masters through shared
    /// memory, named barrier). Gang: per-block partials, last block combines.
    #[default]
    Tree,
    /// Seed 001's design: worker reductions in a shared-memory buffer under a
    /// shared-memory spin lock; gang reductions update `*RES_PTR` under a
    /// global spin lock.
    Lock,
    /// As `tree`, but a gang RED_FINI whose reductions all have a native
    /// atomic (add on 32/64-bit integers, float, double; min, max, and, or,
    /// xor on 32/64-bit integers) is one atomic per block and reduction.
    Atomic,
}

impl Strategy {
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Tree => "tree",
            Strategy::Lock => "lock",
            Strategy::Atomic => "atomic",
        }
    }

    pub fn parse(s: &str) -> Option<Strategy> {
        match s {
            "tree" => Some(Strategy::Tree),
            "lock" => Some(Strategy::Lock),
            "atomic" => Some(Strategy::Atomic),
            _ => None,
        }
    }
}

/// The four builtins of seed 001.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Setup,
    Init,
    Fini,
    Teardown,
}

impl Builtin {
    pub fn as_str(self) -> &'static str {
        match self {
            Builtin::Setup => "RED_SETUP",
            Builtin::Init => "RED_INIT",
            Builtin::Fini => "RED_FINI",
            Builtin::Teardown => "RED_TEARDOWN",
        }
    }
}

/// The threads that hold a value when RED_FINI at WORKER starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holders {
    /// Every thread of the block (no vector level below the worker level).
    All,
    /// The threads whose linear id is a multiple of n: lane 0 of each vector
    /// after a vector tree in segments of n lanes.
    Stride(u32),
    /// The first lane of each warp's piece of each vector: vectors whose
    /// lanes straddle warps (a vector length that is not a power of two up to
    /// 32, or not known when translating).
    Pieces,
}

/// What one builtin expands to (the PTX-level expansion of seed 001, or the
/// algorithms of seed 000 where this translator uses them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exp {
    /// Nothing is emitted: `V = LOCAL`. The text says why.
    Local(&'static str),
    /// RED_SETUP at GANG (host, before the launch): RES_PTR = the device
    /// copy of each RESULT (mapped tofrom), plus the gang storage.
    HostSetup,
    /// RED_TEARDOWN at GANG (host, after the launch): the device copy goes
    /// back to the RESULT object.
    HostTeardown,
    /// RED_INIT at GANG: each thread's LOCAL is declared with init_val(OP).
    Declare,
    /// RED_FINI at VECTOR: a shuffle tree in aligned segments of `width`
    /// lanes (a power of two up to 32). `complete`: a segment is a whole
    /// vector; otherwise (a vector of several warps) each warp holds a piece
    /// and the WORKER tree finishes the vector.
    VectorTree { width: u32, complete: bool },
    /// RED_FINI at VECTOR: each warp's piece of each vector (a contiguous lane
    /// range not starting at lane 0) is reduced into the piece's first lane;
    /// the WORKER tree combines the pieces.
    VectorPieces,
    /// RED_FINI at WORKER, or at VECTOR when the vector is the whole block:
    /// seed 000's block reduction over the holders.
    BlockTree(Holders),
    /// Seed 001's worker buffer: RED_SETUP stores LOCAL into the `.shared`
    /// buffer slot (LID, RID) and clears the lock (thread 0).
    BufferStore,
    /// RED_FINI at WORKER, lock design: buffer = OP(buffer, LOCAL).
    BufferCombine,
    /// RED_TEARDOWN at WORKER, lock design: V = buffer.
    BufferLoad,
    /// RED_LOCK at WORKER, lock design: the holders take the shared-memory lock.
    SharedLock(Holders),
    /// RED_UNLOCK at WORKER, lock design.
    SharedUnlock,
    /// FORK / JOIN at WORKER around the buffer: named barrier 1.
    Barrier,
    /// RED_FINI at GANG, tree: per-block partials, the last block combines
    /// (`one_thread`: every block has a single thread, so no block tree).
    LastBlock { one_thread: bool },
    /// RED_LOCK at GANG, lock design: thread 0 takes the global spin lock.
    GlobalLock,
    /// RED_FINI at GANG under the lock: *RES_PTR = OP(*RES_PTR, LOCAL).
    LockedUpdate,
    /// RED_UNLOCK at GANG, lock design.
    GlobalUnlock,
    /// RED_FINI at GANG, atomics: thread 0 combines each LOCAL into *RES_PTR
    /// with a native atomic.
    Atomics,
    /// RED_FINI at GANG when the launch has one gang: thread 0 folds LOCAL
    /// into *RES_PTR (seed 001's gang FINI; nothing to lock).
    OneGang,
    /// RED_LOCK / RED_UNLOCK that expand to nothing; the text says why.
    NoLock(&'static str),
}

/// One line (or group of lines, one per reduction) of the abstract form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A comment of the form (`// ...`).
    Note(String),
    /// `V = RED_x (RES_PTR, LOCAL, LEVEL, OP, LID, RID)`, one per reduction.
    Red {
        builtin: Builtin,
        level: Level,
        lid: u32,
        res_ptr: bool,
        exp: Exp,
    },
    /// `RED_LOCK (LEVEL, LID)` or `RED_UNLOCK (LEVEL, LID)`.
    Lock {
        level: Level,
        lid: u32,
        unlock: bool,
        exp: Exp,
    },
    /// `FORK (LEVEL)` or `JOIN (LEVEL)`: where the level's partitioning
    /// starts and ends (seed 001's markers, kept for reading).
    Fork { level: Level, join: bool, exp: Exp },
    /// The loop itself.
    Body { lid: u32 },
}

/// A loop of the form: the NULL outermost loop of a reduction on the
/// construct, or the region's loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedLoop {
    pub lid: u32,
    /// The NULL outermost loop (no iterations of its own).
    pub null: bool,
    /// Levels at which this loop's reductions get builtins.
    pub levels: Vec<Level>,
}

/// How the gang level combines (decides the host storage and kernel
/// parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Gang {
    /// Per-block partials of the reduction data, arrival counter, last block.
    #[default]
    Partials,
    /// Global spin lock.
    Lock,
    /// Native atomics.
    Atomic,
    /// One gang (a launch of one block): thread 0 folds into *RES_PTR, no
    /// storage, no lock.
    Single,
}

/// The reductions of one region in the abstract form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RedForm {
    pub strategy: Strategy,
    pub loops: Vec<RedLoop>,
    pub steps: Vec<Step>,
    pub gang: Gang,
    /// Lanes of one vector as the lowering sees them (OpenACC: threadIdx.x;
    /// OpenMP simd: the 32 lanes of a warp); None when there is no vector
    /// level.
    pub vector_lanes: Option<Size>,
    /// Remarks shown with the form (choices a user may want to know about).
    pub notes: Vec<String>,
}

impl RedForm {
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Every expansion of the form, in order.
    pub fn expansions(&self) -> impl Iterator<Item = Exp> + '_ {
        self.steps.iter().filter_map(|s| match s {
            Step::Red { exp, .. } | Step::Lock { exp, .. } | Step::Fork { exp, .. } => Some(*exp),
            _ => None,
        })
    }

    /// Whether some expansion needs the warp-master slots in shared memory.
    pub fn needs_scratch(&self) -> bool {
        self.expansions()
            .any(|e| matches!(e, Exp::BlockTree(_) | Exp::LastBlock { one_thread: false }))
    }

    /// Whether the worker level uses seed 001's shared buffer and lock.
    pub fn needs_worker_buffer(&self) -> bool {
        self.expansions().any(|e| e == Exp::BufferStore)
    }
}

/// One array reduction item of a construct nested in a generic-mode region.
#[derive(Clone, Debug)]
pub struct TeamArrayRed {
    /// The pragma of the construct whose clause names it.
    pub construct: Span,
    pub var: String,
    /// The variable's declared type (array or pointer).
    pub ty: CType,
    /// The element type, unqualified.
    pub elem: CType,
    pub arith: Arith,
    pub op: RedOp,
    /// Flat bounds in scalars (see `array_bounds`).
    pub bounds: Bounds,
    /// The clause item.
    pub span: Span,
}

/// The item as one run of scalars: host/device expressions of its first
/// element (counted in scalars from the variable's first element) and of
/// its length, and the item as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lo: String,
    pub len: String,
    pub text: String,
}
