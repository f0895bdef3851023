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

use crate::directives::Model;
use crate::ir::reduction::{Builtin, Exp, Gang, Holders, RedForm, RedLoop, Step, Strategy};
use crate::ir::{Level, Region, Size};

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
