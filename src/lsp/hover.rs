//! Hover on an offload pragma: the kernel, its launch shape and schedule,
//! where each variable lives and why, the reduction strategy and the
//! bytes staged in shared memory (the `--emit=plan` and `--emit=sharing`
//! views of the region).

use crate::RegionDetails;

/// The hover text (Markdown) of a region.
pub fn markdown(d: &RegionDetails) -> String {
    let s = &d.summary;
    let mut o = format!(
        "**CUDA kernel `{}`** for `{}`\n\n- schedule: {}\n- reductions: {}",
        s.kernel, s.directive, s.schedule, s.reductions
    );
    if s.reductions > 0 {
        o.push_str(&format!(" (strategy `{}`)", d.strategy));
    }
    if s.generic {
        o.push_str(&format!(
            "\n- generic mode: {} B staged in shared memory",
            s.shared_bytes
        ));
    }
    o.push_str("\n\nPlan (`--emit=plan`):\n```text\n");
    o.push_str(d.plan.trim_end());
    o.push_str("\n```\n\nWhere each variable lives (`--emit=sharing`):\n```text\n");
    o.push_str(d.sharing.trim_end());
    o.push_str("\n```\n");
    o
}

/// The code lens title: `CUDA: dot_L11 - grid-stride, 1 reduction`.
pub fn title(s: &crate::RegionSummary) -> String {
    let mut t = format!("CUDA: {} - {}", s.kernel, s.schedule);
    match s.reductions {
        0 => {}
        1 => t.push_str(", 1 reduction"),
        n => t.push_str(&format!(", {n} reductions")),
    }
    if s.generic {
        t.push_str(&format!(", generic, {} B shared", s.shared_bytes));
    }
    t
}
