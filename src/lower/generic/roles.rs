//! What each directive nested in a generic-mode region is (a fork, a loop
//! of the sequential part, a worksharing loop inside a fork, a construct
//! that runs in order, a barrier), and which clauses the compute construct
//! and the nested constructs may carry: the tables the lowering checks
//! before it builds anything.

use crate::directives::{Directive, Model};
use crate::ir::generic::{GenKind, Spread};

/// What a nested directive is in this region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Fork(Spread),
    MasterLoop,
    InnerLoop,
    Strip(&'static str),
    Barrier,
    /// `single`, `master`, `masked`, `critical` (`serial.rs`).
    Serial,
    /// `section` inside a fork: a case of its `sections` (`serial.rs`).
    Section,
    /// Tasks, `taskwait`, `taskyield`, `taskgroup`, `scope`, `flush`
    /// (`tasks.rs`).
    Task,
    Unsupported,
}

pub(super) fn acc_levels(d: &Directive) -> (bool, bool, bool, bool) {
    let has = |n: &str| d.clause(n).is_some();
    (has("gang"), has("worker"), has("vector"), has("seq"))
}

pub(super) fn role(d: &Directive, kind: GenKind, in_fork: bool, fork_is_loop: bool) -> Role {
    match d.model {
        Model::Omp => {
            let n = d.name.as_str();
            if matches!(n, "single" | "master" | "masked" | "critical") {
                return Role::Serial;
            }
            // The `nothing` variant of a metadirective.
            if n == "nothing" {
                return Role::Strip("nothing: no effect");
            }
            if super::tasks::handles(n) {
                // `parallel master taskloop` in a parallel region would be a
                // nested team: not lowered.
                if in_fork && n.starts_with("parallel ") {
                    return Role::Unsupported;
                }
                return Role::Task;
            }
            if n == "loop" {
                return loop_role(d, kind, in_fork, fork_is_loop);
            }
            match (n, in_fork) {
                ("sections", true) => return Role::Serial,
                ("section", true) => return Role::Section,
                ("sections", false) => {
                    return Role::Strip(
                        "sections: a team of one thread runs every section in order",
                    )
                }
                ("section", false) => return Role::Strip("section: run in order"),
                _ => {}
            }
            if in_fork {
                match n {
                    "for" | "for simd" if !fork_is_loop => Role::InnerLoop,
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
                    // A team of one thread (the number of threads is the
                    // implementation's to choose, OpenMP 5.2 12.1.1), whose
                    // master runs the block: the sequential part's thread.
                    "parallel master" | "parallel masked" => Role::Strip(
                        "parallel master: a team of one thread, its master, runs the block",
                    ),
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

/// `omp loop`: its binding region (the `bind` clause, else the construct
/// it is closely nested in) decides who shares the iterations: the team's
/// threads inside a parallel region, the teams in the sequential part of a
/// teams region, else the one encountering thread, which runs it in order.
fn loop_role(d: &Directive, kind: GenKind, in_fork: bool, fork_is_loop: bool) -> Role {
    let bind = d
        .clause("bind")
        .and_then(|c| c.keyword().map(|k| k.trim().to_string()));
    match (bind.as_deref(), in_fork) {
        (Some("thread"), _) => Role::Strip("loop bind(thread): each thread runs the loop in order"),
        (Some("parallel") | None, true) if !fork_is_loop => Role::InnerLoop,
        (Some("parallel") | None, false) if kind != GenKind::OmpTeams || bind.is_some() => {
            Role::Strip("loop: its binding region is the sequential part's one thread, which runs it in order")
        }
        (Some("teams") | None, false) if kind == GenKind::OmpTeams => Role::MasterLoop,
        _ => Role::Unsupported,
    }
}

/// Clauses lowered on the generic compute construct itself.
pub(super) fn top_clause_ok(model: Model, name: &str) -> bool {
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
                | "is_device_ptr"
                | "has_device_addr"
                | "nowait"
                | "depend"
        ),
        Model::Acc => matches!(
            name,
            "copy"
                | "async"
                | "wait"
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
                | "deviceptr"
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
pub(super) fn nested_clause_ok(model: Model, name: &str) -> bool {
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
                // A promise about the data's alignment, which a compiler
                // may ignore: the kernel is correct without it.
                | "aligned"
                | "order"
                | "bind"
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
