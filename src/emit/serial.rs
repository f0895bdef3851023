//! The text of `single`, `master`, `masked` and `critical` in a
//! generic-mode region (`lower::generic::serial`): what replaces the pragma
//! and what follows the statement.
//!
//! A critical construct takes its name's lock (a `static __device__`
//! word of the file, `locks`) by compare-and-swap; the thread that took it
//! runs the body inside that branch and releases it, the others pause and
//! try again, so no lane spins while another lane of its warp holds the lock
//! (correct without independent thread scheduling too). The fences after
//! taking and before releasing order the body's accesses (seed 001's
//! `ptx_lock` / `ptx_unlock`).

use super::edits::Edit;
use crate::ir::generic::{Serial, SerialKind};
use crate::source::Span;
use std::collections::BTreeSet;

/// The opening text (in place of the pragma, which it quotes) and the
/// closing text (after the statement). `tid`: the thread's number in its
/// team, `team`: the team's size, inside a fork; `filter`: a masked
/// construct's rendered filter; `held`: a fresh name.
pub fn texts(
    s: &Serial,
    written: &str,
    tid: &str,
    team: &str,
    filter: Option<String>,
    held: &str,
) -> (String, String) {
    match (&s.kind, s.in_fork) {
        (SerialKind::Single { barrier }, true) => (
            format!("{{ /* {written}: the team's thread 0 runs it */ if ({tid} == 0u) {{"),
            if *barrier {
                format!(" }} p2c_team_barrier({team}); }}")
            } else {
                " } }".to_string()
            },
        ),
        (SerialKind::Single { .. }, false) => (
            format!("{{ /* {written}: a team of one thread runs it */"),
            " }".to_string(),
        ),
        (SerialKind::Masked { .. }, in_fork) => {
            let f = filter.map_or("0".to_string(), |t| format!("({t})"));
            let who = if in_fork {
                format!("(int){tid}")
            } else {
                "0".to_string()
            };
            // The body in braces of its own: text after it on its line is
            // then not under the `if` (clang's -Wmisleading-indentation).
            let (cond, close) = if in_fork || f != "0" {
                (format!(" if ({who} == {f}) {{"), " } }")
            } else {
                (String::new(), " }")
            };
            (
                format!("{{ /* {written}: the thread whose number is the filter runs it */{cond}"),
                close.to_string(),
            )
        }
        (SerialKind::Scope { barrier }, in_fork) => (
            format!("{{ /* {written}: every thread runs it */"),
            if *barrier && in_fork {
                format!(" p2c_team_barrier({team}); }}")
            } else {
                " }".to_string()
            },
        ),
        (SerialKind::Flush, _) => (
            format!("__threadfence(); /* {written}: a full fence */"),
            String::new(),
        ),
        (SerialKind::Sections { .. }, _) => {
            let (open, close) = sections(s, written, tid, team, held);
            (open, close)
        }
        (SerialKind::Critical { name }, _) => {
            let lock = Serial::lock_name(name);
            (
                format!(
                    "{{ /* {written}: one thread at a time (spin lock `{lock}` in global memory) */\n\
                     for (bool {held} = false; !{held}; )\n\
                     if (atomicCAS(&{lock}, 0u, 1u) == 0u) {{ {held} = true; __threadfence(); {{"
                ),
                format!(" }} p2c_unlock_global(&{lock}); }} else p2c_lock_pause(); }}"),
            )
        }
    }
}

/// `sections` in a fork: a loop of each thread over the sections it runs
/// (k = its number, k + team, ...) around a `switch` whose cases are the
/// sections; `held` names the loop's counter.
fn sections(s: &Serial, written: &str, tid: &str, team: &str, k: &str) -> (String, String) {
    let SerialKind::Sections {
        barrier,
        section,
        implicit_first,
    } = &s.kind
    else {
        return (String::new(), String::new());
    };
    let n = section.len() + usize::from(*implicit_first);
    (
        format!(
            "{{ /* {written}: section k runs on thread k mod the team */\n\
             for (unsigned {k} = {tid}; {k} < {n}u; {k} += {team}) switch ({k})"
        ),
        if *barrier {
            format!(" p2c_team_barrier({team}); }}")
        } else {
            " }".to_string()
        },
    )
}

/// The edits inside a `sections` block: each `section` pragma becomes
/// its case label, the block's first section opens case 0, and the last
/// case closes before the block's closing brace.
pub fn section_edits(s: &Serial, written: impl Fn(Span) -> String) -> Vec<Edit> {
    let SerialKind::Sections {
        section,
        implicit_first,
        ..
    } = &s.kind
    else {
        return vec![];
    };
    let mut v = Vec::new();
    let first = usize::from(*implicit_first);
    if *implicit_first {
        v.push(Edit::insert(s.stmt.start + 1, 0, " case 0: {"));
    }
    for (i, sp) in section.iter().enumerate() {
        let k = i + first;
        let close = if k == 0 { "" } else { "} break; " };
        v.push(Edit::replace(
            *sp,
            format!("{close}case {k}: {{ /* {} */", written(*sp)),
        ));
    }
    if first + section.len() > 0 {
        v.push(Edit::insert(s.stmt.end - 1, 0, "} break; "));
    }
    v
}

/// The locks of every critical construct of the file, declared once after
/// the prelude (empty when there is none).
pub fn locks<'a>(serials: impl Iterator<Item = &'a Serial>) -> String {
    let names: BTreeSet<String> = serials
        .filter_map(|s| match &s.kind {
            SerialKind::Critical { name } => Some(Serial::lock_name(name)),
            _ => None,
        })
        .collect();
    if names.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "/* ---- pragma2cuda: the locks of critical constructs, one per name (seed 001's spin lock in global memory) ---- */\n",
    );
    for n in names {
        out.push_str(&format!("static __device__ unsigned {n};\n"));
    }
    out
}
