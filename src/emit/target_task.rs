//! OpenMP target tasks in the host code (#21): a `p2c_omp_task`
//! (templates/p2c_runtime.cuh) opened at the top of a deferred construct's
//! block puts its data movement and kernel on a stream of the target-task
//! pool after the events of the tasks it depends on, and records its own
//! event when the block ends; before an undeferred construct with `depend`
//! (in a file with deferred tasks) the host waits for those tasks.

use crate::ir::data::OmpTask;
use std::fmt::Write;

/// The name of the task object in the construct's block.
pub const NAME: &str = "p2c_task";

/// `p2c_omp_task p2c_task(1, WHERE);` and a line per dependence, each line
/// starting with `ind`.
pub fn open_deferred(t: &OmpTask, where_: &str, ind: &str) -> String {
    let mut o = format!(
        "{ind}p2c_omp_task {NAME}(1, {where_}); /* nowait: a deferred target task on a stream */\n"
    );
    o.push_str(&deps(t, ind));
    o
}

/// The statement run before an undeferred construct in a file with
/// deferred target tasks: the host waits for the tasks its `depend` items
/// depend on (every pending one for `omp_all_memory`); `None` when there
/// is nothing to wait for. `where_` is a C string literal.
pub fn before_undeferred(t: &OmpTask, where_: &str) -> Option<String> {
    if !t.table || t.deferred {
        return None;
    }
    if t.all_memory {
        return Some(format!(
            "p2c_omp_target_tasks_wait({where_}); /* depend(omp_all_memory): every pending target task completes first */"
        ));
    }
    if t.deps.is_empty() {
        return None;
    }
    let mut o = format!("{{ p2c_omp_task {NAME}(0, {where_}); /* depend: the target tasks this construct depends on complete first */\n");
    o.push_str(&deps(t, "    "));
    o.push('}');
    Some(o)
}

fn deps(t: &OmpTask, ind: &str) -> String {
    let mut o = String::new();
    for d in &t.deps {
        let how = if d.writes { "out" } else { "in" };
        let _ = writeln!(
            o,
            "{ind}{NAME}.{how}({}); /* {} */",
            d.addr,
            d.item.replace("*/", "* /")
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::data::OmpDep;

    #[test]
    fn deferred_and_undeferred() {
        let mut t = OmpTask {
            deps: vec![OmpDep {
                writes: true,
                item: "a[0:n]".into(),
                addr: "&(a)[0]".into(),
            }],
            nowait: true,
            deferred: true,
            table: true,
            ..OmpTask::default()
        };
        assert_eq!(
            open_deferred(&t, "w", ""),
            "p2c_omp_task p2c_task(1, w); /* nowait: a deferred target task on a stream */\np2c_task.out(&(a)[0]); /* a[0:n] */\n"
        );
        assert_eq!(before_undeferred(&t, "\"f:1\""), None);
        t.deferred = false;
        assert!(before_undeferred(&t, "\"f:1\"")
            .unwrap()
            .starts_with("{ p2c_omp_task p2c_task(0, \"f:1\");"));
        t.table = false;
        assert_eq!(before_undeferred(&t, "\"f:1\""), None);
    }
}
