//! After the regions: the device functions they call, and the parallel
//! constructs of those functions (orphans), outlined as bodies that the
//! workers of the regions reaching them dispatch.

use super::Input;
use crate::diag::Diagnostic;
use crate::ir::declare::DeclarePlan;
use crate::ir::edit::FreshName;
use crate::ir::Region;
use crate::lower::declare;
use crate::source::Span;
use std::collections::BTreeSet;

/// Adds the functions `regions` call to `declare`, collects the orphaned
/// parallel constructs of the device functions and tells each region
/// whether it reaches one.
pub(super) fn finish(
    a: &Input,
    regions: &mut [Region],
    declare: &mut DeclarePlan,
    namer: &mut dyn FreshName,
    diags: &mut Vec<Diagnostic>,
) {
    let calls: Vec<(String, Span)> = regions.iter().flat_map(|r| r.calls.clone()).collect();
    declare::add_called(declare, a.file, a.tree, &calls, diags);
    let device_fns: BTreeSet<String> = declare.fns.iter().map(|f| f.name.clone()).collect();
    let region_spans: Vec<Span> = regions
        .iter()
        .map(|r| Span::new(r.pragma.start, r.stmt.end))
        .collect();
    declare.orphans = crate::lower::orphan::collect(
        a.file,
        a.tree,
        a.attached,
        &device_fns,
        &region_spans,
        diags,
    );
    crate::lower::orphan_shadow::apply(declare);
    for o in &mut declare.orphans.orphans {
        o.outlined = namer.fresh(&format!("{}_parallel_L{}", o.function, o.line));
    }
    let cases: Vec<(u32, String)> = declare
        .orphans
        .orphans
        .iter()
        .map(|o| (o.id, o.outlined.clone()))
        .collect();
    for r in regions {
        let reached = r
            .calls
            .iter()
            .any(|(n, _)| declare.orphans.callers.contains(n));
        let Some(g) = r.generic.as_mut().filter(|g| g.reaches_orphans) else {
            continue;
        };
        if reached {
            g.orphan_cases = cases.clone();
        } else if g.forks.is_empty() {
            // Every parallel construct it reaches runs with one thread
            // (W0004): no workers, as for a region without forks.
            g.reaches_orphans = false;
            g.team_limit = 1;
            g.block_threads = 1;
            g.runtime_limit = None;
            r.threads_x = crate::ir::Size::Fixed(1);
            r.notes.retain(|n| !n.starts_with("fork/join"));
        }
    }
}
