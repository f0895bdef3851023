//! OpenACC's `async` and `wait` (clauses and the `acc wait` directive) on
//! CUDA streams (#21), and OpenMP target tasks: `nowait` and `depend` read
//! into an [`OmpTask`] ([`omp_target_task`]; whether it is deferred is the
//! file's decision, `lower::target_tasks`), with the `taskwait depend`
//! that orders it after host tasks ([`omp_task_wait`]).
//!
//! [`acc_queue`] reads a construct's `async` / `wait` into an
//! [`AccQueue`]; the emitter opens a `p2c_acc_queue` for it
//! (templates/p2c_runtime.cuh): queue q is a blocking stream created on
//! first use, the construct's data movement and launch go to it, and each
//! `wait` queue is an event the stream waits for (the host waits when the
//! construct has no `async`). The queue and wait arguments are evaluated
//! once, when the construct is reached; an argument that may have a side
//! effect (a call, an assignment, `++`, `--`) is still refused, as the
//! emitted code may evaluate the queue expression more than once.

use crate::diag::{codes, Diagnostic};
use crate::directives::{ClauseArgs, Directive, Model};
use crate::ir::data::{AccQueue, OmpDep, OmpTask};
use crate::source::Span;

/// The queue and the waits of an OpenACC construct (`acc wait`: its list
/// too); `None` when it has neither.
pub fn acc_queue(d: &Directive) -> Option<AccQueue> {
    if d.model != Model::Acc {
        return None;
    }
    let queue = d.clause("async").map(|c| match &c.args {
        ClauseArgs::Expr { expr, .. } => expr.text.clone(),
        _ => "acc_async_noval".to_string(),
    });
    let mut lists: Vec<&ClauseArgs> = d.clauses_named("wait").map(|c| &c.args).collect();
    if d.name == "wait" {
        lists.push(d.arg.as_ref().map_or(&ClauseArgs::None, |a| &a.args));
    }
    let waits = if lists.is_empty() {
        None
    } else if lists.iter().any(|a| queue_list(a).is_empty()) {
        Some(Vec::new())
    } else {
        Some(lists.iter().flat_map(|a| queue_list(a)).collect())
    };
    (queue.is_some() || waits.is_some()).then_some(AccQueue { queue, waits })
}

/// The queues of a `wait` argument (`devnum:` aside: one device); empty for
/// none (every queue).
fn queue_list(args: &ClauseArgs) -> Vec<String> {
    match args {
        ClauseArgs::Args(v) => v
            .iter()
            .filter(|a| a.name.as_ref().map_or(true, |n| n.text != "devnum"))
            .map(|a| a.value.text.clone())
            .collect(),
        ClauseArgs::Expr { expr, .. } => vec![expr.text.clone()],
        _ => Vec::new(),
    }
}

/// OpenACC `async` and `wait`: the clauses [`acc_queue`] reads.
pub fn synchronous_acc_clause(model: Model, name: &str) -> bool {
    model == Model::Acc && matches!(name, "async" | "wait")
}

/// Whether a C expression may have a side effect, judged on its text: a
/// call, an assignment (compound ones included), `++` or `--`.
pub fn may_have_side_effect(expr: &str) -> bool {
    let b = expr.as_bytes();
    if expr.contains('(') && call_like(expr) || expr.contains("++") || expr.contains("--") {
        return true;
    }
    b.iter().enumerate().any(|(i, &c)| {
        if c != b'=' {
            return false;
        }
        let prev = if i > 0 { b[i - 1] } else { b' ' };
        let next = b.get(i + 1).copied().unwrap_or(b' ');
        // `==`, `<=`, `>=`, `!=` compare; anything else before `=` assigns.
        !(next == b'=' || prev == b'=' || matches!(prev, b'<' | b'>' | b'!'))
            || matches!(prev, b'<' | b'>') && i >= 2 && b[i - 2] == prev
    })
}

/// Whether some `(` follows a name (a call) rather than opening a cast or
/// a parenthesised expression.
fn call_like(expr: &str) -> bool {
    let b = expr.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        c == b'(' && {
            let before = expr[..i].trim_end();
            before
                .chars()
                .last()
                .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == ')' || ch == ']')
        }
    })
}

/// The expressions of an argument list, with their spans.
fn arg_exprs(args: &ClauseArgs) -> Vec<(String, Span)> {
    match args {
        ClauseArgs::Expr { expr, .. } => vec![(expr.text.clone(), expr.span)],
        ClauseArgs::Args(v) => v
            .iter()
            .map(|a| (a.value.text.clone(), a.value.span))
            .collect(),
        ClauseArgs::List { items, .. } => items
            .iter()
            .map(|i| {
                let parts = i
                    .sections
                    .iter()
                    .flat_map(|s| [&s.lower, &s.length, &s.stride]);
                let subscripts: Vec<&str> = parts.flatten().map(|e| e.text.as_str()).collect();
                (
                    format!("{}{} {}", i.name, i.path, subscripts.join(" ")),
                    i.span,
                )
            })
            .collect(),
        ClauseArgs::None | ClauseArgs::Keyword(_) => vec![],
    }
}

/// Refuses (E0901) every `async` / `wait` argument of `d` (and the list of
/// the `acc wait` directive) that may have a side effect: the emitted code
/// does not promise to evaluate it exactly once.
pub fn check_arguments(d: &Directive, diags: &mut Vec<Diagnostic>) {
    if d.model != Model::Acc {
        return;
    }
    let mut exprs: Vec<(String, Span)> = d
        .clauses
        .iter()
        .filter(|c| synchronous_acc_clause(d.model, &c.name))
        .flat_map(|c| arg_exprs(&c.args))
        .collect();
    if d.name == "wait" {
        if let Some(a) = &d.arg {
            exprs.extend(arg_exprs(&a.args));
        }
        exprs.extend(d.clauses_named("if").flat_map(|c| arg_exprs(&c.args)));
    }
    for (text, span) in exprs {
        if may_have_side_effect(&text) {
            diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    span,
                    format!(
                        "`{text}` may have a side effect: an `async` / `wait` argument that is not a plain expression is not supported yet"
                    ),
                )
                .with_label("not lowered yet")
                .with_help("compute the queue number into a variable before the directive"),
            );
        }
    }
}

/// OpenMP `depend` on a target construct run synchronously (#21): before
/// the construct the encountering task waits for its sibling tasks that
/// the construct depends on (`taskwait depend`, OpenMP 5.0, with the same
/// dependences), then runs the construct to completion, so a task created
/// after it finds it complete. `mutexinoutset` and `inoutset` wait as
/// `inout` (a superset of their predecessors; `taskwait` takes neither).
/// `depend(out / inout: omp_all_memory)` depends on every sibling task
/// before it: a plain `taskwait` (every child task, a superset).
/// `depobj`, `source` / `sink` and `iterator(...)` are refused. Returns the
/// `_Pragma(...)` text, `None` without `depend`.
pub fn omp_task_wait(d: &Directive, text: &str, diags: &mut Vec<Diagnostic>) -> Option<String> {
    if d.model != Model::Omp {
        return None;
    }
    let mut parts = Vec::new();
    for c in d.clauses_named("depend") {
        match depend_part(c, text) {
            Ok(p) => parts.push(p),
            Err(why) => diags.push(
                Diagnostic::new(codes::NOT_SUPPORTED, c.span, format!("{why} is not supported yet"))
                    .with_label("not lowered yet")
                    .with_note("lowered: depend(in / out / inout / mutexinoutset / inoutset: variables and array sections) on target constructs"),
            ),
        }
    }
    if parts.is_empty() {
        return None;
    }
    let pragma = if parts.iter().any(|p| p == ALL_MEMORY) {
        "omp taskwait".to_string()
    } else {
        format!("omp taskwait {}", parts.join(" "))
    };
    Some(format!(
        "_Pragma(\"{}\")",
        pragma.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// The target task of an OpenMP construct with `nowait` or `depend`
/// (`None` otherwise): its dependences with their addresses (`&x`, `&(a)[lo]`
/// for a section: the address of its first element), `mutexinoutset` and
/// `inoutset` ordered as `inout` (a superset of their orderings). Clauses
/// that keep a `nowait` construct undeferred: `if` (the host fallback),
/// `device`, `in_reduction` (an included host task) and `omp_all_memory`.
/// Forms [`omp_task_wait`] refuses are left out here.
pub fn omp_target_task(d: &Directive, text: &str) -> Option<OmpTask> {
    let nowait = d.clause("nowait").is_some();
    if d.model != Model::Omp || !nowait && d.clause("depend").is_none() {
        return None;
    }
    let mut t = OmpTask {
        nowait,
        ..OmpTask::default()
    };
    for c in d.clauses_named("depend") {
        let ClauseArgs::List { modifiers, items } = &c.args else {
            continue;
        };
        let [m] = modifiers.as_slice() else {
            continue;
        };
        let writes = match m.text.as_str() {
            "in" => false,
            "out" | "inout" | "mutexinoutset" | "inoutset" => true,
            _ => continue,
        };
        for i in items {
            if i.name == ALL_MEMORY {
                t.all_memory = true;
                continue;
            }
            let item = text.get(i.span.start..i.span.end).unwrap_or("").to_string();
            t.deps.push(OmpDep {
                writes,
                addr: dep_address(i),
                item,
            });
        }
    }
    let why = [
        ("if", "an `if` clause (the host fallback)"),
        ("device", "a `device` clause"),
        ("in_reduction", "`in_reduction` (an included host task)"),
    ]
    .iter()
    .find(|(c, _)| d.clause(c).is_some())
    .map(|(_, w)| w.to_string())
    .or_else(|| {
        t.all_memory
            .then(|| "`omp_all_memory` (every earlier task completes first)".to_string())
    });
    t.undeferred_why = why.filter(|_| nowait);
    Some(t)
}

/// The address a `depend` list item names: the variable's, or the first
/// element's of a section (a missing lower bound is 0).
fn dep_address(i: &crate::directives::ListItem) -> String {
    let mut a = format!("&({}{})", i.name, i.path);
    for s in &i.sections {
        let lo = s.lower.as_ref().map_or("0", |e| e.text.as_str());
        a.push_str(&format!("[{lo}]"));
    }
    a
}

/// OpenMP `in_reduction` on a target construct (5.0): the target task
/// joins the task reduction of the enclosing host `taskgroup` /
/// `reduction(task, ...)`. The region's host block runs as an included
/// host task with the same `in_reduction` clauses, so inside it each item
/// names the task's reduction copy, which the launch maps `tofrom` (the
/// caller turns the clauses into `map(tofrom: ...)`). Without host OpenMP
/// the pragma is ignored and the item is the variable itself, which is
/// what a sequential run needs. The `_Pragma(...)` text; `None` without
/// `in_reduction`.
pub fn omp_in_reduction_task(d: &Directive, text: &str) -> Option<String> {
    let clauses: Vec<&str> = d
        .clauses_named("in_reduction")
        .map(|c| text.get(c.span.start..c.span.end).unwrap_or(""))
        .collect();
    if d.model != Model::Omp || clauses.is_empty() {
        return None;
    }
    let pragma = format!("omp task if(0) {}", clauses.join(" "))
        .replace("\\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    Some(format!(
        "_Pragma(\"{}\")",
        pragma.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// What [`depend_part`] gives for a clause that names `omp_all_memory`.
const ALL_MEMORY: &str = "omp_all_memory";

/// One `depend` clause as a clause of `taskwait` ([`ALL_MEMORY`] when it
/// names `omp_all_memory`), or why it is refused.
fn depend_part(c: &crate::directives::Clause, text: &str) -> Result<String, String> {
    let ClauseArgs::List { modifiers, items } = &c.args else {
        return Err("this form of `depend`".to_string());
    };
    let [m] = modifiers.as_slice() else {
        return Err("`depend` with a modifier (`iterator`, ...)".to_string());
    };
    let ty = match m.text.as_str() {
        t @ ("in" | "out" | "inout") => t,
        "mutexinoutset" | "inoutset" => "inout",
        other => return Err(format!("`depend({other}: ...)`")),
    };
    let mut list = Vec::new();
    for i in items {
        if i.name == "omp_all_memory" {
            if !matches!(m.text.as_str(), "out" | "inout") {
                return Err(format!("`depend({}: omp_all_memory)`", m.text));
            }
            return Ok(ALL_MEMORY.to_string());
        }
        let item = text.get(i.span.start..i.span.end).unwrap_or("");
        if item.is_empty() || item.contains('\n') {
            return Err("a `depend` list item written over several lines".to_string());
        }
        list.push(item.to_string());
    }
    Ok(format!("depend({ty}: {})", list.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::may_have_side_effect as se;
    use super::omp_task_wait;
    use crate::directives::parse_pragma;
    use crate::source::Span;

    fn task_wait(src: &str) -> (Option<String>, usize) {
        let (d, _) = parse_pragma(src, Span::new(0, src.len()));
        let mut diags = Vec::new();
        let w = omp_task_wait(&d.expect("a directive"), src, &mut diags);
        (w, diags.len())
    }

    #[test]
    fn depend_becomes_a_taskwait_with_the_same_dependences() {
        let (w, n) =
            task_wait("#pragma omp target depend(in: a[0:n]) depend(mutexinoutset: b) nowait");
        assert_eq!(n, 0);
        assert_eq!(
            w.as_deref(),
            Some("_Pragma(\"omp taskwait depend(in: a[0:n]) depend(inout: b)\")")
        );
    }

    #[test]
    fn a_target_task_reads_its_dependences_and_addresses() {
        let src = "#pragma omp target depend(in: a[2:n], x) depend(mutexinoutset: s.b) nowait";
        let (d, _) = parse_pragma(src, Span::new(0, src.len()));
        let t = super::omp_target_task(&d.expect("a directive"), src).expect("a task");
        let got: Vec<(bool, &str, &str)> = t
            .deps
            .iter()
            .map(|d| (d.writes, d.item.as_str(), d.addr.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (false, "a[2:n]", "&(a)[2]"),
                (false, "x", "&(x)"),
                (true, "s.b", "&(s.b)")
            ]
        );
        assert!(t.nowait && t.undeferred_why.is_none());
        let src = "#pragma omp target update to(a) nowait if(c)";
        let (d, _) = parse_pragma(src, Span::new(0, src.len()));
        let t = super::omp_target_task(&d.expect("a directive"), src).expect("a task");
        assert!(t.undeferred_why.is_some() && t.deps.is_empty());
    }

    #[test]
    fn omp_all_memory_waits_for_every_child_task() {
        let (w, n) =
            task_wait("#pragma omp target depend(in: a) depend(inout: omp_all_memory) map(a)");
        assert_eq!(n, 0);
        assert_eq!(w.as_deref(), Some("_Pragma(\"omp taskwait\")"));
        let (w, n) = task_wait("#pragma omp target update to(a) depend(out: omp_all_memory)");
        assert_eq!((w.as_deref(), n), (Some("_Pragma(\"omp taskwait\")"), 0));
    }

    #[test]
    fn plain_expressions_have_no_side_effect() {
        for e in [
            "1",
            "q",
            "q + 1",
            "a[i]",
            "(int)x",
            "x == 2",
            "x <= y",
            "x != 0",
            "acc_async_noval",
            "(q)",
        ] {
            assert!(!se(e), "{e}");
        }
    }

    #[test]
    fn calls_and_assignments_may() {
        for e in [
            "f()", "q++", "--q", "q = 2", "q += 1", "q <<= 1", "g(1) + 2", "a[i](3)",
        ] {
            assert!(se(e), "{e}");
        }
    }
}
