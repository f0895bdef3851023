//! Reductions in the abstract form of seed 001, and the expansion chosen for
//! every builtin.
//!
//! For each region this module places, per partitioned level, the builtins
//! `RED_SETUP` (before the partitioned region), `RED_INIT` (at its start),
//! `RED_FINI` (at its end, between `RED_LOCK` and `RED_UNLOCK`) and
//! `RED_TEARDOWN` (after it), each with `(RES_PTR, LOCAL, LEVEL, OP, LID,
//! RID)`: a loop id per loop (the NULL outermost loop of a reduction on the
//! construct included) and a reduction id per reduction. Then it decides
//! what each builtin expands to on the GPU ([`Exp`]). The emitter writes the
//! kernel and host code by walking [`RedForm::steps`] and spelling each
//! expansion; `--emit=reductions` prints the same steps (see [`render`]).
//!
//! Levels (see ARCHITECTURE.md): gang = CUDA block; OpenACC worker =
//! threadIdx.y, vector = threadIdx.x; OpenMP teams / distribute = gang,
//! parallel for threads = worker, simd = vector (the 32 lanes of a warp, as
//! GCC's nvptx OpenMP does: an OpenMP thread of a `simd` loop is a warp).
//!
//! Where the reduction clause sits decides the outer (gang) reduction:
//! - a reduction on the construct (`acc parallel loop`, `acc serial loop`,
//!   every OpenMP construct with `teams`): the NULL outermost loop at GANG,
//!   lid 0; the loop is lid 1 and its own gang level gets no second setup;
//! - `acc kernels loop gang ...`: the gang loop's own reduction, lid 0;
//! - no gang level (`acc kernels loop worker`, `omp target parallel for`):
//!   the dummy gang reduction of seed 001 around the worker/vector
//!   reductions, with the loop's lid and rids.
//!
//! The RESULT of the gang reduction is always the copy object (the reduction
//! variable is implicitly copied: OpenACC 2.7 for combined constructs,
//! OpenMP 5 for combined `target` constructs), so RES_PTR is its device copy;
//! the worker and vector reductions have private RESULTs (RES_PTR NULL): the
//! vector's RESULT is the worker's LOCAL, the worker's the gang's LOCAL.

pub mod array_bounds;
pub mod array_generic;
pub mod array_over_teams;
pub mod array_team_area;
mod generic;
pub mod render;

use super::ir::{Level, Region, Size};
use crate::directives::Model;

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

/// Whether the reduction clause of this construct applies to the construct
/// itself (the NULL outermost loop at GANG) rather than only to its loop.
fn construct_reduction(r: &Region) -> bool {
    match r.model {
        Model::Acc => matches!(r.construct.as_str(), "parallel loop" | "serial loop"),
        Model::Omp => r.construct.split_whitespace().any(|w| w == "teams"),
    }
}

/// Builds the form of `r`'s reductions with the expansions `strategy` asks for.
pub fn build(r: &Region, strategy: Strategy) -> RedForm {
    let mut f = RedForm {
        strategy,
        ..Default::default()
    };
    if r.reductions.is_empty() {
        return f;
    }
    if let Some(g) = &r.generic {
        return generic::build(r, g, f);
    }
    let on_construct = construct_reduction(r);
    let inner: Vec<Level> = r
        .levels
        .iter()
        .copied()
        .filter(|l| *l != Level::Gang)
        .collect();
    let (outer_lid, loop_lid) = if on_construct { (0, 1) } else { (0, 0) };
    let vector_lanes = match r.model {
        Model::Acc => r.threads_x.clone(),
        Model::Omp => Size::Fixed(32),
    };
    if inner.contains(&Level::Vector) {
        f.vector_lanes = Some(vector_lanes.clone());
    }
    // The gang level: its expansions are the same wherever it sits.
    let gang_ends = gang_level(r, &mut f, outer_lid);
    let gang_lid = outer_part(r, &mut f, &inner, outer_lid, loop_lid);
    f.loops.push(RedLoop {
        lid: loop_lid,
        null: false,
        levels: if on_construct {
            inner.clone()
        } else {
            r.levels.clone()
        },
    });
    if !inner.is_empty() {
        let names: Vec<String> = inner.iter().map(|l| l.as_str().to_string()).collect();
        f.steps.push(Step::Note(format!(
            "{} RESULT{} private (RES_PTR NULL): each level's RESULT is the LOCAL of the level around it, GANG's LOCAL outermost",
            names.join(" and "),
            if names.len() > 1 { "s are" } else { " is" }
        )));
    }
    let has_worker = inner.contains(&Level::Worker);
    let exps = LevelExps::new(
        &vector_lanes,
        has_worker,
        inner.contains(&Level::Vector),
        strategy,
    );
    inner_levels(&mut f, &inner, loop_lid, &exps);
    outer_end(r, &mut f, outer_lid, gang_lid, gang_ends);
    if strategy == Strategy::Lock && has_worker {
        f.notes.push(
            "lock: the worker buffer is one `__shared__` object with a slot per (lid, rid), sized by the loop with the most worker reductions (one such loop per kernel)".to_string(),
        );
    }
    f
}

/// RED_SETUP and RED_INIT at GANG (with the fork of the blocks when the
/// loop itself is the gang loop).
fn gang_setup(f: &mut RedForm, lid: u32, fork: bool) {
    f.steps.push(Step::Red {
        builtin: Builtin::Setup,
        level: Level::Gang,
        lid,
        res_ptr: true,
        exp: Exp::HostSetup,
    });
    if fork {
        f.steps.push(Step::Fork {
            level: Level::Gang,
            join: false,
            exp: Exp::Local("every block runs from the start"),
        });
    }
    f.steps.push(Step::Red {
        builtin: Builtin::Init,
        level: Level::Gang,
        lid,
        res_ptr: true,
        exp: Exp::Declare,
    });
}

/// RED_LOCK, RED_FINI, RED_UNLOCK (the gang level's expansions `ends`),
/// the join and RED_TEARDOWN at GANG.
fn gang_fini(f: &mut RedForm, lid: u32, join: bool, ends: (Exp, Exp, Exp)) {
    let (g_lock, g_fini, g_unlock) = ends;
    f.steps.push(Step::Lock {
        level: Level::Gang,
        lid,
        unlock: false,
        exp: g_lock,
    });
    f.steps.push(Step::Red {
        builtin: Builtin::Fini,
        level: Level::Gang,
        lid,
        res_ptr: true,
        exp: g_fini,
    });
    f.steps.push(Step::Lock {
        level: Level::Gang,
        lid,
        unlock: true,
        exp: g_unlock,
    });
    if join {
        f.steps.push(Step::Fork {
            level: Level::Gang,
            join: true,
            exp: Exp::Local("the kernel ends"),
        });
    }
    f.steps.push(Step::Red {
        builtin: Builtin::Teardown,
        level: Level::Gang,
        lid,
        res_ptr: true,
        exp: Exp::HostTeardown,
    });
}

/// The outer part of the form: the construct's reduction (the NULL
/// outermost loop), the loop's own gang reduction, or a dummy gang
/// reduction around the loop's. Returns the lid of the gang reduction.
fn outer_part(r: &Region, f: &mut RedForm, inner: &[Level], outer_lid: u32, loop_lid: u32) -> u32 {
    let loop_gang = r.levels.contains(&Level::Gang);
    let words: Vec<&str> = r.levels.iter().map(|l| l.as_str()).collect();
    let levels_text = if words.is_empty() {
        "no partitioned level".to_string()
    } else {
        words.join(" ").to_lowercase()
    };
    let var = r.nest.first().map(|l| l.var.as_str()).unwrap_or("?");
    let construct = format!("{} {}", r.model.as_str(), r.construct);
    if construct_reduction(r) {
        let what = if r.model == Model::Omp {
            "the teams construct (teams = gang)"
        } else {
            "the parallel construct"
        };
        f.steps.push(Step::Note(format!(
            "reduction on {what} of `{construct}`: the NULL outermost loop, lid {outer_lid}"
        )));
        f.loops.push(RedLoop {
            lid: outer_lid,
            null: true,
            levels: vec![Level::Gang],
        });
        gang_setup(f, outer_lid, false);
        let gang_note = if loop_gang {
            "; its GANG level is the construct's reduction (no second RED_SETUP / RED_INIT)"
        } else {
            ""
        };
        f.steps.push(Step::Note(format!(
            "loop {var}, lid {loop_lid}: {levels_text}{gang_note}"
        )));
        outer_lid
    } else if loop_gang {
        f.steps.push(Step::Note(format!(
            "loop {var}, lid {loop_lid}: {levels_text}; gang reduction of a copy object"
        )));
        gang_setup(f, loop_lid, true);
        loop_lid
    } else {
        f.steps.push(Step::Note(format!(
            "dummy gang reduction around the {} reduction of a copy object (same lid and rid as the loop)",
            if inner.is_empty() {
                "loop's".to_string()
            } else {
                inner
                    .iter()
                    .map(|l| l.as_str().to_lowercase())
                    .collect::<Vec<_>>()
                    .join(" / ")
            }
        )));
        gang_setup(f, outer_lid, false);
        f.steps.push(Step::Note(format!(
            "loop {var}, lid {loop_lid}: {levels_text}"
        )));
        outer_lid
    }
}

/// The end of the outer part, matching [`outer_part`].
fn outer_end(r: &Region, f: &mut RedForm, outer_lid: u32, gang_lid: u32, ends: (Exp, Exp, Exp)) {
    if construct_reduction(r) {
        f.steps.push(Step::Note(format!(
            "end of the construct: the NULL outermost loop, lid {outer_lid}"
        )));
        gang_fini(f, outer_lid, false, ends);
    } else if r.levels.contains(&Level::Gang) {
        gang_fini(f, gang_lid, true, ends);
    } else {
        f.steps.push(Step::Note(
            "dummy gang reduction at the end (locked too: several gangs may update *RES_PTR)"
                .to_string(),
        ));
        gang_fini(f, outer_lid, false, ends);
    }
}

/// The worker and vector levels' expansions.
struct LevelExps {
    vec_fini: Exp,
    holders: Holders,
    lock: bool,
}

impl LevelExps {
    fn new(vector_lanes: &Size, has_worker: bool, has_vector: bool, strategy: Strategy) -> Self {
        let vec_fini = match vector_lanes {
            Size::Fixed(w) if w.is_power_of_two() && *w <= 32 => Exp::VectorTree {
                width: *w,
                complete: true,
            },
            Size::Fixed(w) if w % 32 == 0 && has_worker => Exp::VectorTree {
                width: 32,
                complete: false,
            },
            _ if has_worker => Exp::VectorPieces,
            _ => Exp::BlockTree(Holders::All),
        };
        let holders = if has_vector {
            match vec_fini {
                Exp::VectorTree { width, .. } => Holders::Stride(width),
                _ => Holders::Pieces,
            }
        } else {
            Holders::All
        };
        LevelExps {
            vec_fini,
            holders,
            lock: strategy == Strategy::Lock,
        }
    }

    /// SETUP, FORK, INIT, LOCK, FINI, UNLOCK, JOIN, TEARDOWN at `level`.
    fn of(&self, level: Level) -> [Exp; 8] {
        let already = Exp::Local(
            "LOCAL already holds init_val(OP) (RED_INIT at GANG): keeping it or taking init_val(OP) is the same",
        );
        match level {
            Level::Vector => [
                Exp::Local("V = LOCAL"),
                Exp::Local("the lanes run from the kernel's start"),
                already,
                Exp::NoLock("vector reductions need no lock"),
                self.vec_fini,
                Exp::NoLock("no lock"),
                Exp::Local("nothing"),
                Exp::Local("V = LOCAL: the value is in the holder lanes"),
            ],
            _ if self.lock => [
                Exp::BufferStore,
                Exp::Barrier,
                already,
                Exp::SharedLock(self.holders),
                Exp::BufferCombine,
                Exp::SharedUnlock,
                Exp::Barrier,
                Exp::BufferLoad,
            ],
            _ => [
                Exp::Local("V = LOCAL"),
                Exp::Local("the workers run from the kernel's start"),
                already,
                Exp::NoLock("the tree needs no lock: warp shuffles, then named barrier 1"),
                Exp::BlockTree(self.holders),
                Exp::NoLock("no lock"),
                Exp::Local("the tree ends with a named barrier"),
                Exp::Local("V = LOCAL: the block's value is in thread 0"),
            ],
        }
    }
}

/// The worker and vector levels around the loop body: setup, fork and init
/// outermost first, then the body, then lock, fini, unlock, join and
/// teardown innermost first.
fn inner_levels(f: &mut RedForm, inner: &[Level], loop_lid: u32, exps: &LevelExps) {
    for level in inner {
        let e = exps.of(*level);
        let red = |builtin, exp| Step::Red {
            builtin,
            level: *level,
            lid: loop_lid,
            res_ptr: false,
            exp,
        };
        f.steps.push(red(Builtin::Setup, e[0]));
        f.steps.push(Step::Fork {
            level: *level,
            join: false,
            exp: e[1],
        });
        f.steps.push(red(Builtin::Init, e[2]));
    }
    f.steps.push(Step::Body { lid: loop_lid });
    for level in inner.iter().rev() {
        let e = exps.of(*level);
        let red = |builtin, exp| Step::Red {
            builtin,
            level: *level,
            lid: loop_lid,
            res_ptr: false,
            exp,
        };
        let lock_step = |unlock, exp| Step::Lock {
            level: *level,
            lid: loop_lid,
            unlock,
            exp,
        };
        f.steps.push(lock_step(false, e[3]));
        f.steps.push(red(Builtin::Fini, e[4]));
        f.steps.push(lock_step(true, e[5]));
        f.steps.push(Step::Fork {
            level: *level,
            join: true,
            exp: e[6],
        });
        f.steps.push(red(Builtin::Teardown, e[7]));
    }
}

/// The gang level's strategy and its RED_LOCK / RED_FINI / RED_UNLOCK
/// expansions (sets `f.gang`; the same wherever the gang level sits).
fn gang_level(r: &Region, f: &mut RedForm, outer_lid: u32) -> (Exp, Exp, Exp) {
    let strategy = f.strategy;
    let all_atomic = r.reductions.iter().all(|x| x.op.has_atomic(x.arith));
    let one_gang = r.blocks == Size::Fixed(1);
    f.gang = match strategy {
        Strategy::Tree | Strategy::Atomic if one_gang => Gang::Single,
        Strategy::Tree => Gang::Partials,
        Strategy::Lock => Gang::Lock,
        Strategy::Atomic if all_atomic => Gang::Atomic,
        Strategy::Atomic => {
            let missing: Vec<String> = r
                .reductions
                .iter()
                .filter(|x| !x.op.has_atomic(x.arith))
                .map(|x| format!("`{}` on {}", x.op.as_str(), x.var))
                .collect();
            f.notes.push(format!(
                "atomic: no native atomic for {}, so RED_FINI at GANG keeps the last-block combine for every reduction of lid {outer_lid}",
                missing.join(", ")
            ));
            Gang::Partials
        }
    };
    let one_thread = r.threads_x == Size::Fixed(1) && r.threads_y == Size::Fixed(1);
    let (g_lock, g_fini, g_unlock) = match f.gang {
        Gang::Partials => (
            Exp::NoLock("no lock: each block writes its own partial; the last block to arrive combines them"),
            Exp::LastBlock { one_thread },
            Exp::NoLock("no lock"),
        ),
        Gang::Lock => (Exp::GlobalLock, Exp::LockedUpdate, Exp::GlobalUnlock),
        Gang::Atomic => (
            Exp::NoLock("no lock: every reduction of this loop has a native atomic"),
            Exp::Atomics,
            Exp::NoLock("no lock"),
        ),
        Gang::Single => (
            Exp::NoLock("no lock: the launch has one gang"),
            Exp::OneGang,
            Exp::NoLock("no lock"),
        ),
    };
    (g_lock, g_fini, g_unlock)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategy_names_round_trip() {
        for s in [Strategy::Tree, Strategy::Lock, Strategy::Atomic] {
            assert_eq!(Strategy::parse(s.as_str()), Some(s));
        }
        assert_eq!(Strategy::parse("fast"), None);
    }
}
