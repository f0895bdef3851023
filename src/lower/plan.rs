//! `--emit=plan`: the region IR as text, for people and golden tests.

use crate::ir::data::{DataKind, DataOp, RangeExpr};
use crate::ir::declare::DeclarePlan;
use crate::ir::{Region, Size};
use crate::sema::sharing::{Attr, MapKind};
use crate::source::SourceFile;
use std::fmt::Write;

fn size(s: &Size) -> String {
    match s {
        Size::Fixed(v) => v.to_string(),
        Size::Clause { clause, expr, .. } => format!("{clause}({expr})"),
        Size::FromTrip => "from trip count".into(),
    }
}

fn range(r: &RangeExpr) -> String {
    match r {
        RangeExpr::Object => " (whole variable)".to_string(),
        RangeExpr::Section { lo, len } => format!("[{lo}:{len}]"),
        RangeExpr::Section2 { lo, len, lo2, len2 } => {
            format!(
                "[{lo}:{len}][{lo2}:{len2}] (whole rows on the device, the columns transferred)"
            )
        }
        RangeExpr::Pointer => " (the pointer)".to_string(),
    }
}

/// The data constructs and device declarations, after the regions.
fn render_data(file: &SourceFile, data: &[DataOp], declare: &DeclarePlan, o: &mut String) {
    for op in data {
        let (l, c) = file.line_col(op.pragma.start);
        let (model, what, function) = (op.model.as_str(), &op.construct, &op.function);
        let at = format!("{}:{l}:{c}", file.name);
        let _ = writeln!(o, "data {model} {what} at {at} in {function}()");
        let _ = writeln!(o, "  kind:      {}", op.kind.as_str());
        if let (DataKind::Region, Some(stmt)) = (op.kind, op.stmt) {
            let _ = writeln!(
                o,
                "  covers:    lines {}-{}",
                file.line_of(stmt.start),
                file.line_of(stmt.end.saturating_sub(1).max(stmt.start))
            );
        }
        if let Some(cond) = &op.if_cond {
            let what = if op.kind == DataKind::Runtime {
                "nothing is done"
            } else {
                "nothing is mapped"
            };
            let _ = writeln!(o, "  if:        {cond} (else {what})");
        }
        if let Some(q) = &op.acc_queue {
            let _ = writeln!(o, "  queue:     {}", queue_text(q));
        }
        if let Some(t) = &op.omp_task {
            let _ = writeln!(o, "  task:      {}", task_text(t));
        }
        if let Some(dev) = &op.device {
            let _ = writeln!(
                o,
                "  device:    {dev} (0: the GPU; the host's number: nothing is mapped)"
            );
        }
        let refs = match op.refs {
            "P2C_REF_OMP_DYNAMIC" => "OpenMP reference count",
            "P2C_REF_ACC_DYNAMIC" => "dynamic reference count",
            _ => "structured reference count",
        };
        for it in &op.items {
            let what = if op.kind == DataKind::Update {
                format!(
                    "update {}{}",
                    if it.to_device {
                        "to the device"
                    } else {
                        "to the host"
                    },
                    if it.absent_ok {
                        ", skipped when absent"
                    } else {
                        ", absent is an error"
                    }
                )
            } else if it.range == RangeExpr::Pointer {
                format!(
                    "{} action on the pointer's device copy (attachment counter)",
                    if op.kind == DataKind::Exit {
                        "detach"
                    } else {
                        "attach"
                    }
                )
            } else {
                let words: Vec<String> = it
                    .kind
                    .split(" | ")
                    .map(|k| {
                        k.trim_start_matches("P2C_MAP_")
                            .to_lowercase()
                            .replace('_', " ")
                    })
                    .collect();
                format!("{} ({refs})", words.join(", "))
            };
            let _ = writeln!(
                o,
                "  item:      {}{} -- {what} [{}]",
                it.name,
                range(&it.range),
                it.clause
            );
            if it.attach && it.range != RangeExpr::Pointer {
                let _ = writeln!(
                    o,
                    "  attach:    {} -- pointer reference: attached after the entry, detached before the exit",
                    it.name
                );
            }
        }
        for c in &op.calls {
            let _ = writeln!(o, "  call:      {c}");
        }
        for n in &op.notes {
            let _ = writeln!(o, "  note:      {n}");
        }
        o.push('\n');
    }
    for f in &declare.fns {
        let _ = writeln!(o, "device function {}: {} [{}]", f.name, f.spec, f.rule);
        for (v, s) in &f.var_uses {
            let _ = writeln!(
                o,
                "  uses:      {v} at line {} (the device copy on the device)",
                file.line_of(s.start)
            );
        }
        for x in declare
            .orphans
            .orphans
            .iter()
            .filter(|x| x.function == f.name)
        {
            let _ = writeln!(
                o,
                "  parallel:  line {}: {}, region id {} outlined as {}(): forks the block's workers when a master calls it from a sequential part, else one thread",
                x.line, x.construct, x.id, x.outlined
            );
            for v in &x.vars {
                let _ = writeln!(
                    o,
                    "  frame:     {} : {} at offset {} (copied in{})",
                    v.name,
                    v.ty.type_name(),
                    v.offset,
                    if v.copy_back { " and back" } else { "" }
                );
            }
        }
    }
    for v in &declare.vars {
        let presence = if v.link {
            "present only where a map clause maps it"
        } else {
            "present from the start"
        };
        let _ = writeln!(
            o,
            "device variable {} : {} -- __device__ copy, {} [{}]",
            v.name,
            v.ty.type_name(),
            presence,
            v.rule
        );
    }
    for n in &declare.notes {
        let _ = writeln!(o, "note: {n}");
    }
}

/// A region's first lines: where it is, its directive, schedule and launch.
fn region_header(file: &SourceFile, r: &Region, o: &mut String) {
    let (name, l) = file.origin(r.pragma.start);
    let c = file.line_col(r.pragma.start).1;
    let _ = writeln!(
        o,
        "region {} at {}:{}:{} in {}()",
        r.kernel, name, l, c, r.function
    );
    let _ = writeln!(o, "  directive: {} {}", r.model.as_str(), r.construct);
    if r.generic.is_none() {
        let _ = writeln!(o, "  schedule:  {}", r.schedule.as_str());
    }
    let cap = if r.blocks == Size::FromTrip && r.max_blocks != 65535 {
        format!(" (at most {}: reductions)", r.max_blocks)
    } else {
        String::new()
    };
    let _ = writeln!(
        o,
        "  launch:    blocks {}{cap}, threads {} x {}",
        size(&r.blocks),
        size(&r.threads_x),
        size(&r.threads_y)
    );
}

pub fn render(
    file: &SourceFile,
    regions: &[Region],
    data: &[DataOp],
    declare: &DeclarePlan,
) -> String {
    let mut o = String::new();
    for r in regions {
        region_header(file, r, &mut o);
        for (lp, ty) in r.nest.iter().zip(&r.nest_types) {
            let dir = if lp.test.increasing() { "+" } else { "-" };
            let _ = writeln!(
                o,
                "  loop:      {} {} from {} while {} {} {} step {}{}",
                ty.type_name(),
                lp.var,
                lp.lb,
                lp.var,
                lp.written_test,
                lp.ub,
                dir,
                lp.step
            );
        }
        if let Some(c) = &r.if_cond {
            let _ = writeln!(o, "  if:        {c} (else the loop runs on the host)");
        }
        if let Some(c) = &r.device_check {
            let _ = writeln!(
                o,
                "  device:    {c} (device 0 only: the region has no host version)"
            );
        }
        if let Some(q) = &r.acc_queue {
            let _ = writeln!(o, "  queue:     {}", queue_text(q));
        }
        if let Some(t) = &r.omp_task {
            let _ = writeln!(o, "  task:      {}", task_text(t));
        }
        for v in &r.vars {
            let what = match &v.attr {
                Attr::Private => "private".to_string(),
                Attr::Firstprivate => "firstprivate (by value)".to_string(),
                Attr::ArrayPrivate { .. } => match r.array_privates.iter().find(|a| a.var == v.sym.name) {
                    Some(a) => format!(
                        "{} {} ({}; global memory)",
                        if a.first { "firstprivate" } else { "private" },
                        a.text,
                        a.home()
                    ),
                    None => "private copy".to_string(),
                },
                Attr::Mapped { kind, sections, .. } => {
                    let secs: Vec<String> = sections
                        .iter()
                        .map(|s| {
                            format!(
                                "[{}:{}]",
                                s.lower.as_ref().map(|e| e.text.as_str()).unwrap_or(""),
                                s.length.as_ref().map(|e| e.text.as_str()).unwrap_or("")
                            )
                        })
                        .collect();
                    format!("map {}{} (device memory)", kind.as_str(), secs.join(""))
                }
                Attr::Reduction { op, map, .. } => match map {
                    MapKind::ToFrom => format!("reduction {}", op.as_str()),
                    // A map clause of the construct names it (sharing::decide).
                    _ => format!(
                        "reduction {} into the device copy of map {}",
                        op.as_str(),
                        map.as_str()
                    ),
                },
                Attr::ArrayReduction { op, sections, .. } => format!(
                    "reduction {} over the {} element by element (per-thread private copies in global memory, combined per block, then by the last block into the device copy)",
                    op.as_str(),
                    if sections.is_empty() { "whole array" } else { "array section" }
                ),
                Attr::Lastprivate { .. } if v.sym.ty.is_array() => {
                    "lastprivate (a local array in each thread; the last iteration's thread copies the whole array back)".to_string()
                }
                Attr::Lastprivate { conditional: false }
                    if r.generic.is_none()
                        && r.nest.len() > 1
                        && r.nest.iter().any(|l| l.var == v.sym.name) =>
                {
                    "lastprivate loop variable (the value after the nest: its bound + its loop's trip count * step, written back by the thread that ran the last iteration)".to_string()
                }
                Attr::Lastprivate { .. } if linear_step(r, &v.sym.name).is_some() => format!(
                    "linear step {} (each iteration sets the private copy to the original + the iteration's number * step, both read on the host before the launch; the last iteration's value is written back)",
                    linear_step(r, &v.sym.name).unwrap_or("1")
                ),
                Attr::Lastprivate { conditional } => format!(
                    "lastprivate{} (private; the {} iteration's value is written back)",
                    if *conditional { "(conditional)" } else { "" },
                    if *conditional {
                        "last assigning"
                    } else {
                        "last"
                    }
                ),
            };
            let _ = writeln!(
                o,
                "  var:       {} : {} -- {} [{}]",
                v.sym.name,
                v.sym.ty.type_name(),
                what,
                v.rule
            );
        }
        for x in &r.reductions {
            let levels: Vec<&str> = r
                .red
                .loops
                .iter()
                .flat_map(|l| l.levels.iter().map(|v| v.as_str()))
                .collect();
            let (op, ty, levels) = (x.op.as_str(), x.ty.type_name(), levels.join(", "));
            let how = format!(
                "{}; --emit=reductions shows the form",
                r.red.strategy.as_str()
            );
            let _ = writeln!(
                o,
                "  reduction: {op} {} rid {}: {ty} at {levels} ({how})",
                x.var, x.rid
            );
        }
        if let Some(g) = &r.generic {
            for l in super::generic::plan_lines(g, file) {
                let _ = writeln!(o, "  {l}");
            }
        }
        for n in &r.notes {
            let _ = writeln!(o, "  note:      {n}");
        }
        o.push('\n');
    }
    render_data(file, data, declare, &mut o);
    o
}

/// OpenACC `async` / `wait` in the plan (#21).
fn queue_text(q: &crate::ir::data::AccQueue) -> String {
    let mut t = match &q.queue {
        Some(x) => format!("async({x}): on the queue's stream"),
        None => "synchronous".to_string(),
    };
    match q.waits.as_deref() {
        None => {}
        Some([]) => t.push_str(", after every queue"),
        Some(list) => t.push_str(&format!(", after queue(s) {}", list.join(", "))),
    }
    t
}

/// An OpenMP target task in the plan (#21): deferred or not, and why;
/// its dependences.
fn task_text(t: &crate::ir::data::OmpTask) -> String {
    let mut s = if t.deferred {
        "nowait: deferred, on a stream of the target-task pool (sequential part of the program; undeferred inside a parallel region)".to_string()
    } else if let Some(why) = &t.undeferred_why {
        format!("nowait, run undeferred: {why}")
    } else if t.nowait {
        "nowait, run undeferred (the file has no deferred target task)".to_string()
    } else {
        "undeferred (no nowait)".to_string()
    };
    if !t.deps.is_empty() || t.all_memory {
        let mut items: Vec<String> = t
            .deps
            .iter()
            .map(|d| format!("{} {}", if d.writes { "out" } else { "in" }, d.item))
            .collect();
        if t.all_memory {
            items.push("out omp_all_memory".into());
        }
        let how = if t.deferred {
            "its stream waits for their events"
        } else if t.table {
            "the host waits for the target tasks first"
        } else {
            "after `taskwait depend`"
        };
        s.push_str(&format!("; depend: {} ({how})", items.join(", ")));
    }
    s
}

/// The step of `name` if it is a `linear` variable of the SPMD region `r`.
fn linear_step<'r>(r: &'r Region, name: &str) -> Option<&'r str> {
    r.linear
        .iter()
        .find(|l| r.vars[l.var].sym.name == name)
        .map(|l| l.step.as_str())
}
