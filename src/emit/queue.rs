//! OpenACC `async` / `wait` in the host code (#21): a `p2c_acc_queue`
//! (templates/p2c_runtime.cuh) opened at the top of the construct's block
//! puts the construct's data movement and kernel on the queue's stream and
//! makes it wait for the `wait` queues first.

use crate::ir::data::AccQueue;
use std::fmt::Write;

/// `p2c_acc_queue NAME(QUEUE, WHERE);` (`acc_async_sync` without `async`)
/// and a line per `wait` queue: `NAME.after(q);`, or `NAME.after_all();`
/// for a bare `wait`. Each line starts with `ind`.
pub fn open(q: &AccQueue, name: &str, where_: &str, ind: &str) -> String {
    declare(q, name, where_, ind) + &waits(q, name, ind)
}

/// `p2c_acc_queue NAME(QUEUE, WHERE);`
pub fn declare(q: &AccQueue, name: &str, where_: &str, ind: &str) -> String {
    let queue = q.queue.as_deref().unwrap_or("acc_async_sync");
    format!("{ind}p2c_acc_queue {name}({queue}, {where_});\n")
}

/// The `NAME.after(...)` lines of the `wait` queues.
pub fn waits(q: &AccQueue, name: &str, ind: &str) -> String {
    let mut o = String::new();
    match &q.waits {
        None => {}
        Some(list) if list.is_empty() => {
            let _ = writeln!(o, "{ind}{name}.after_all();");
        }
        Some(list) => {
            for w in list {
                let _ = writeln!(o, "{ind}{name}.after({w});");
            }
        }
    }
    o
}

/// Helpers of templates/p2c_host.cuh and p2c_generic.cuh whose device
/// storage every launch shares (reduction partials and counters, the gang
/// lock, private and reduction copies, team frames, lastprivate scratch): a
/// kernel that uses one must not overlap another launch, so it runs on the
/// default stream after its queue (`serial()`).
const SHARED_SCRATCH: [&str; 6] = [
    "p2c_partials",
    "p2c_counter(",
    "p2c_gang_lock(",
    "p2c_array_copies",
    "p2c_team_stack(",
    "p2c_lastprivate_scratch(",
];

/// Whether the host code of a region (as the emitter wrote it) uses
/// storage shared between launches.
pub fn shares_scratch(host: &str) -> bool {
    SHARED_SCRATCH.iter().any(|h| host.contains(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_and_waits() {
        let q = AccQueue {
            queue: Some("q".into()),
            waits: Some(vec!["1".into(), "2".into()]),
        };
        assert_eq!(
            open(&q, "p2c_queue", "w", ""),
            "p2c_acc_queue p2c_queue(q, w);\np2c_queue.after(1);\np2c_queue.after(2);\n"
        );
        let all = AccQueue {
            queue: None,
            waits: Some(vec![]),
        };
        assert_eq!(
            open(&all, "x", "w", "  "),
            "  p2c_acc_queue x(acc_async_sync, w);\n  x.after_all();\n"
        );
    }

    #[test]
    fn scratch_helpers_are_seen() {
        assert!(shares_scratch("float *p = p2c_partials<float>(0u, b, w);"));
        assert!(!shares_scratch(
            "int *d = p2c_map_section(a, 0, n, P2C_MAP_TO, w, \"a\");"
        ));
    }
}
