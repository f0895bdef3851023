//! Which OpenMP target tasks are deferred (#21), decided for the whole file.
//!
//! A target construct, `target enter/exit data` or `target update` with
//! `nowait` is a deferred target task: it runs on a stream of a small pool
//! (`p2c_omp_task`, templates/p2c_runtime.cuh), after the events of the
//! sibling target tasks its `depend` items name, and records an event for
//! the later ones. The host waits for every pending target task at each
//! `taskwait` and `barrier` of the file (their pragmas are rewritten to
//! call `p2c_omp_target_tasks_wait` first) and at program exit; an
//! undeferred construct with `depend` waits on the host for the tasks it
//! depends on. The runtime defers only in the sequential part of the
//! program (`omp_get_level() == 0`): inside a parallel region a target
//! task runs undeferred, as a conforming implementation may.
//!
//! A `nowait` construct stays undeferred (synchronous after its `taskwait
//! depend`, `asynchrony::omp_task_wait`) where the ordering would be the
//! host OpenMP runtime's, which knows nothing of the streams: inside a host
//! OpenMP construct (a `task`, a `parallel`, a `taskgroup` ... whose end or
//! dependences would have to wait for it), or anywhere in a file with a
//! host directive with `depend` (a host task may depend on a target task),
//! a `taskgroup`, or a `taskwait` / `barrier` that cannot be rewritten
//! (written through a macro, with clauses, or over several lines). The
//! plan says why.

use crate::front::Attached;
use crate::ir::data::{DataOp, OmpTask};
use crate::ir::Region;
use crate::source::{SourceFile, Span};

/// Decides every target task of the file; the rewrites of the host
/// `taskwait` and `barrier` pragmas when some task is deferred.
pub fn settle(
    file: &SourceFile,
    attached: &[Attached],
    regions: &mut [Region],
    data: &mut [DataOp],
    rewrites: &mut Vec<(Span, String)>,
) {
    let offloaded = crate::lower::file::offloaded_spans(regions);
    let host: Vec<&Attached> = attached
        .iter()
        .filter(|at| is_host_omp(at) && !inside_any(&offloaded, at.directive.span))
        .collect();
    let file_why = file_reason(file, &host);
    let mut tasks: Vec<(Span, &mut OmpTask)> = regions
        .iter_mut()
        .filter_map(|r| r.omp_task.as_mut().map(|t| (r.pragma, t)))
        .chain(
            data.iter_mut()
                .filter_map(|op| op.omp_task.as_mut().map(|t| (op.pragma, t))),
        )
        .collect();
    for (pragma, t) in tasks.iter_mut() {
        if !t.nowait || t.undeferred_why.is_some() {
            continue;
        }
        t.undeferred_why = file_why.clone().or_else(|| enclosing(&host, *pragma));
        t.deferred = t.undeferred_why.is_none();
    }
    if !tasks.iter().any(|(_, t)| t.deferred) {
        return;
    }
    for (_, t) in tasks.iter_mut() {
        t.table = true;
    }
    for at in &host {
        if let Some(rw) = sync_rewrite(file, at) {
            rewrites.push(rw);
        }
    }
}

/// An OpenMP directive of the host program (no `target`, `teams`,
/// `distribute` or declarative directive) inside a function.
fn is_host_omp(at: &Attached) -> bool {
    let d = &at.directive;
    d.model == crate::directives::Model::Omp
        && at.function.is_some()
        && !d
            .words()
            .any(|w| matches!(w, "target" | "teams" | "distribute"))
        && !d.name.starts_with("declare")
        && !d.name.starts_with("begin")
        && !d.name.starts_with("end")
        && d.name != "requires"
}

fn inside_any(spans: &[Span], s: Span) -> bool {
    spans.iter().any(|o| o.start <= s.start && s.end <= o.end)
}

/// Why no target task of the file can be deferred, if so.
fn file_reason(file: &SourceFile, host: &[&Attached]) -> Option<String> {
    host.iter().find_map(|at| {
        let d = &at.directive;
        if d.clause("depend").is_some() {
            Some(format!(
                "the file has `omp {}` with `depend` (a host task may depend on a target task)",
                d.name
            ))
        } else if d.name == "taskgroup" {
            Some("the file has `omp taskgroup` (its end would wait for target tasks)".into())
        } else if matches!(d.name.as_str(), "taskwait" | "barrier") && sync_rewrite(file, at).is_none()
        {
            Some(format!(
                "the file has an `omp {}` written through a macro, with clauses or over several lines",
                d.name
            ))
        } else {
            None
        }
    })
}

/// The host construct whose region holds the pragma at `pragma`, as the
/// reason the task there runs undeferred.
fn enclosing(host: &[&Attached], pragma: Span) -> Option<String> {
    host.iter()
        .find(|at| {
            crate::valid::spec::has_block(&at.directive)
                && at
                    .stmt
                    .is_some_and(|s| at.directive.span.start < pragma.start && pragma.start < s.end)
        })
        .map(|at| {
            format!(
                "inside host `omp {}` (the host OpenMP runtime orders it)",
                at.directive.name
            )
        })
}

/// `taskwait` / `barrier` written as a one-line `#pragma` without clauses:
/// the host waits for the pending target tasks first, then the pragma as
/// `_Pragma` on the same line.
fn sync_rewrite(file: &SourceFile, at: &Attached) -> Option<(Span, String)> {
    let d = &at.directive;
    if !matches!(d.name.as_str(), "taskwait" | "barrier") {
        return None;
    }
    let text = file.text.get(d.span.start..d.span.end)?.trim_end();
    if !d.clauses.is_empty() || !text.starts_with('#') || text.contains('\n') {
        return None;
    }
    let (name, line) = file.origin(d.span.start);
    let where_ = crate::source::literal::c_string(&format!("{name}:{line}"));
    Some((
        Span::new(d.span.start, d.span.start + text.len()),
        format!(
            "p2c_omp_target_tasks_wait(\"{where_}\"); _Pragma(\"omp {}\") /* `{}`: the pending target tasks complete first */",
            d.name,
            crate::source::pragma_text::pragma_one_line(text)
        ),
    ))
}
