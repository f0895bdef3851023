//! Generic mode's lines of `--emit=plan`: the execution, the team, each
//! fork and loop with its reductions, the code run in order, the staged
//! variables and the team's frame.

use crate::ir::generic::red_list;
use crate::ir::generic::{Fork, GenKind, Generic, Serial, SerialKind, WsLoop};
use crate::ir::staging::Home;
use crate::source::SourceFile;

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
        if let Some(w) = &f.ws {
            chunk_line(w, file, &mut v);
        }
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
        chunk_line(w, file, &mut v);
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
        chunk_line(w, file, &mut v);
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
    crate::lower::gen_lastprivate::plan_lines(g, file, &mut v);
    for s in &g.serials {
        v.push(serial_line(g, s, file));
    }
    for (sp, why) in &g.stripped {
        v.push(format!(
            "in order:  line {}: {} ({why})",
            file.line_of(sp.start),
            crate::source::pragma_text::pragma_one_line(file.slice(*sp))
                .trim_start_matches("#pragma ")
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

/// How a loop's `schedule` / `dist_schedule` was mapped.
fn chunk_line(w: &WsLoop, file: &SourceFile, v: &mut Vec<String>) {
    if let Some(n) = &w.chunk_note {
        v.push(format!(
            "schedule:  line {}: {n}",
            file.line_of(w.pragma.start)
        ));
    }
}

/// Who runs a `single`, `master`, `masked`, `critical` or `sections`.
fn serial_line(g: &Generic, s: &Serial, file: &SourceFile) -> String {
    let in_fork = s.in_fork || g.kind == GenKind::OmpParallel;
    let what = match (&s.kind, in_fork) {
        (SerialKind::Single { barrier }, true) => format!(
            "the team's thread 0 runs it{}",
            if *barrier {
                ", then a team barrier"
            } else {
                " (nowait: no barrier)"
            }
        ),
        (SerialKind::Single { .. }, false) => {
            "the sequential part's one thread runs it".to_string()
        }
        (SerialKind::Masked { filter }, true) => format!(
            "the thread whose number is {} runs it, no barrier",
            filter.map_or("0".to_string(), |f| file.slice(f).trim().to_string())
        ),
        (SerialKind::Masked { filter }, false) => match filter {
            Some(f) => format!(
                "the sequential part's one thread (number 0) runs it when {} is 0",
                file.slice(*f).trim()
            ),
            None => "the sequential part's one thread runs it".to_string(),
        },
        (SerialKind::Critical { name }, _) => format!(
            "one thread at a time of every team: spin lock `{}` in global memory, one per name in the file (compare-and-swap, a fence after taking it and before releasing it; the body runs in the branch that took it, so no lane waits for a lane of its own warp)",
            Serial::lock_name(name)
        ),
        (SerialKind::Sections { barrier, section, implicit_first }, _) => format!(
            "{} sections as the cases of a switch in a loop: section k runs on thread k mod the team{}",
            section.len() + usize::from(*implicit_first),
            if *barrier {
                ", then a team barrier"
            } else {
                " (nowait: no barrier)"
            }
        ),
        (SerialKind::Scope { barrier }, true) => format!(
            "every thread of the team runs it{}",
            if *barrier {
                ", then a team barrier"
            } else {
                " (nowait: no barrier)"
            }
        ),
        (SerialKind::Scope { .. }, false) => {
            "the sequential part's one thread runs it".to_string()
        }
        (SerialKind::Flush, _) => "a full memory fence (__threadfence)".to_string(),
    };
    format!(
        "serial:    line {}: {}: {what}",
        file.line_of(s.pragma.start),
        crate::source::pragma_text::pragma_one_line(file.slice(s.pragma))
            .trim_start_matches("#pragma ")
    )
}
