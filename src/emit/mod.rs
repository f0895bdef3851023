//! Emission: the output `.cu` file. The prelude from `templates/`, then the
//! user's file with every byte outside offloaded regions copied unchanged,
//! except the few edits C needs to be valid C++ (see `lower::cxx`), kernels placed
//! before the function they come from, each region replaced by the host
//! code that maps its data and launches its kernel, each data construct by
//! its present-table calls (`data`), and the device declarations (`declare`).
//!
//! Architecture invariant: the emitter only spells what lowering decided;
//! all generated names come from the central [`namer::Namer`].

pub mod array_team;
pub mod array_team_area;
pub mod atomic;
mod bind;
pub mod complex;
pub mod counter;
pub mod data;
pub mod declare;
pub mod edits;
pub(crate) mod fold;
pub mod gen_lastprivate;
pub mod generic;
pub mod guard;
pub mod host_fallback;
pub mod lastprivate_array;
pub mod lastprivate_value;
pub mod linear;
pub mod lines;
pub mod local_macros;
pub mod namer;
pub mod orphan;
pub mod orphan_team;
pub mod partial_warp;
pub mod prelude;
pub mod privarray;
pub mod queue;
pub mod reduction;
pub mod region;
pub mod serial;
pub mod target_task;
pub mod templates;
pub mod tile;

use crate::diag::Diagnostic;
use crate::ir::data::DataOp;
use crate::ir::declare::DeclarePlan;
use crate::ir::Region;
use crate::source::{cond, SourceFile, Span};
use edits::{apply, apply_with, Edit};
use std::collections::BTreeMap;

/// Writes the whole output file. A region whose CUDA lost a nested
/// directive adds an E0990 to `diags` (see [`guard`]); the caller then
/// writes nothing.
///
/// A region whose pragma ends an arm of an `#if` group and whose statement
/// follows the `#endif` ([`cond::shared_statement`]) keeps the group: the
/// pragma becomes the host code, every other arm gets a copy of the
/// statement (an `#else` arm is added when the group has none), and the
/// statement after the `#endif` is removed. Each arm then runs what it ran
/// before, with that arm's pragma lowered.
///
/// With `line_out` (the output's name), the file gets `#line` directives
/// (see [`lines`]).
#[allow(clippy::too_many_arguments)]
pub fn emit_file(
    file: &SourceFile,
    regions: &[Region],
    data: &[DataOp],
    declare: &DeclarePlan,
    cxx: crate::ir::edit::CxxPlan,
    namer: &mut namer::Namer,
    diags: &mut Vec<Diagnostic>,
    prelude: prelude::Mode,
    line_out: Option<&str>,
) -> String {
    let text = &file.text;
    let marks = line_out.is_some() && lines::usable(text);
    let groups = if regions.is_empty() {
        Vec::new()
    } else {
        cond::groups(text)
    };
    let places = RegionPlaces::of(text, &groups, regions);
    let inside_region = spans_holding(places.replaced(regions));
    // In text order (stably: the order of edits at one offset is kept), so
    // that each region takes its own edits by binary search.
    let mut cxx_edits = cxx.edits;
    cxx_edits.sort_by_key(|e| e.span.start);
    let mut edits: Vec<Edit> = cxx_edits
        .iter()
        .filter(|e| !inside_region(e))
        .cloned()
        .collect();
    let copies = place_regions(
        file, &groups, regions, &places, declare, &cxx_edits, namer, &mut edits, diags, marks,
    );
    arm_copy_edits(text, &groups, &copies, &cxx_edits, &mut edits);
    data_edits(file, data, namer, &mut edits);
    let decl_edits = declare::declare_edits(declare, namer);
    if !declare.orphans.orphans.is_empty() {
        let mut device: Vec<Edit> = cxx_edits.clone();
        device.extend(decl_edits.iter().cloned());
        edits.extend(orphan::edits(&declare.orphans, file, &device, namer));
    }
    edits.extend(decl_edits.into_iter().filter(|e| !inside_region(e)));
    check_device_fns(file, regions, data, declare, &edits, diags);
    let mut out = file_head(file, regions, declare, prelude, cxx.complex);
    out.push_str(&apply_with(
        &file.text,
        Span::new(0, file.text.len()),
        &edits,
        marks,
    ));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    match line_out {
        Some(name) if marks => lines::resolve(&out, file, name),
        _ => out,
    }
}

/// Where each region sits among the file's `#if` groups.
struct RegionPlaces {
    /// Group and arm of each region whose statement follows an `#endif`.
    shared: Vec<Option<(usize, usize)>>,
    /// A region's pragmas that end an arm: the region's own and the
    /// construct's other pragmas after it (`target` / `teams` / `#endif`).
    heads: Vec<Span>,
}

impl RegionPlaces {
    fn of(text: &str, groups: &[cond::CondGroup], regions: &[Region]) -> RegionPlaces {
        let shared: Vec<Option<(usize, usize)>> = regions
            .iter()
            .map(|r| cond::shared_statement(groups, r.pragma, r.stmt))
            .collect();
        let heads = regions
            .iter()
            .zip(&shared)
            .map(|(r, sh)| match sh {
                Some((g, k)) => through_arm(text, &groups[*g], *k, r.pragma),
                None => r.pragma,
            })
            .collect();
        RegionPlaces { shared, heads }
    }

    /// The spans the regions' host code replaces.
    fn replaced(&self, regions: &[Region]) -> Vec<Span> {
        let mut replaced: Vec<Span> = Vec::new();
        for ((r, sh), head) in regions.iter().zip(&self.shared).zip(&self.heads) {
            if sh.is_some() {
                replaced.push(*head);
                replaced.push(r.stmt);
            } else {
                replaced.push(Span::new(r.pragma.start, r.stmt.end));
            }
        }
        replaced
    }
}

/// Each region's kernel (before its function) and host code (in place of
/// its pragma and statement). Returns, per (group, statement), the arms
/// whose pragma was lowered.
#[allow(clippy::too_many_arguments)]
fn place_regions(
    file: &SourceFile,
    groups: &[cond::CondGroup],
    regions: &[Region],
    places: &RegionPlaces,
    declare: &DeclarePlan,
    cxx_edits: &[Edit],
    namer: &mut namer::Namer,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
    marks: bool,
) -> BTreeMap<(usize, Span), Vec<usize>> {
    let text = &file.text;
    let mut copies: BTreeMap<(usize, Span), Vec<usize>> = BTreeMap::new();
    for ((r, sh), head) in regions.iter().zip(&places.shared).zip(&places.heads) {
        let RegionText { kernel, host } = render_region(r, file, declare, cxx_edits, namer, marks);
        diags.extend(if marks {
            let (k, h) = (lines::strip(&kernel), lines::strip(&host));
            guard::lost_directives(file, r.pragma, r.stmt, &k, &h)
        } else {
            guard::lost_directives(file, r.pragma, r.stmt, &kernel, &host)
        });
        let kernel =
            match local_macros::around_kernel(text, groups, r.function_start, r.pragma.start) {
                Ok(w) => format!("{}{kernel}{}", w.before, w.after),
                Err(d) => {
                    diags.push(d);
                    kernel
                }
            };
        edits.push(Edit::insert(
            r.function_start,
            10,
            in_same_arms(text, groups, r, kernel),
        ));
        let host = host.replace('\n', &format!("\n{}", indent_at(text, r.pragma.start)));
        match sh {
            Some((g, k)) => {
                edits.push(Edit::replace(*head, host));
                copies.entry((*g, r.stmt)).or_default().push(*k);
            }
            None => edits.push(Edit::replace(Span::new(r.pragma.start, r.stmt.end), host)),
        }
    }
    copies
}

/// A statement shared by the arms of an `#if` group: every arm whose
/// pragma was not lowered gets a copy (an `#else` arm is added when the
/// group has none) and the statement after the `#endif` goes.
fn arm_copy_edits(
    text: &str,
    groups: &[cond::CondGroup],
    copies: &BTreeMap<(usize, Span), Vec<usize>>,
    cxx_edits: &[Edit],
    edits: &mut Vec<Edit>,
) {
    for ((g, stmt), lowered) in copies {
        let grp = &groups[*g];
        let copy = format!(
            "{}{}\n",
            indent_at(text, stmt.start),
            apply(text, *stmt, cxx_edits)
        );
        for k in 0..grp.arms().len() {
            if !lowered.contains(&k) {
                edits.push(Edit::insert(grp.lines[k + 1].start, 30, copy.clone()));
            }
        }
        if let (false, Some(endif)) = (grp.has_else, grp.endif()) {
            edits.push(Edit::insert(endif.start, 30, format!("#else\n{copy}")));
        }
        edits.push(Edit::replace(whole_lines(text, *stmt), ""));
    }
}

/// Each data construct's present-table calls in place of its pragma (and
/// after its statement for a structured data region).
fn data_edits(file: &SourceFile, data: &[DataOp], namer: &mut namer::Namer, edits: &mut Vec<Edit>) {
    for op in data {
        let t = data::emit_data(op, file.origin(op.pragma.start).0, namer);
        let indent = indent_at(&file.text, op.pragma.start);
        let nl = format!("\n{indent}");
        edits.push(Edit::replace(op.pragma, t.open.replace('\n', &nl)));
        if let (Some(close), Some(stmt)) = (t.close, op.stmt) {
            // Data regions that end together close innermost first.
            let order = u32::MAX - u32::try_from(op.pragma.start).unwrap_or(u32::MAX - 1000);
            edits.push(Edit::insert(stmt.end, order, close.replace('\n', &nl)));
        }
    }
}

/// No offload construct left as a pragma in a device function's body, and
/// none lowered there into host code (map calls, a kernel launch).
fn check_device_fns(
    file: &SourceFile,
    regions: &[Region],
    data: &[DataOp],
    declare: &DeclarePlan,
    edits: &[Edit],
    diags: &mut Vec<Diagnostic>,
) {
    for f in &declare.fns {
        // Only a body written with a pragma can hold one after its edits.
        let Some(body) = f.body else { continue };
        let pragmas = data
            .iter()
            .map(|op| op.pragma)
            .chain(regions.iter().map(|r| r.pragma));
        for p in pragmas.filter(|p| body.contains(p.start)) {
            diags.push(guard::host_construct_in_device_fn(file, p, &f.name));
        }
        if !crate::source::mask::find_pragmas(file.slice(body)).is_empty() {
            let device = apply(&file.text, body, edits);
            diags.extend(guard::surviving(file, body, &device, guard::is_offload));
        }
    }
}

/// The file's banner and the prelude parts its regions need.
fn file_head(
    file: &SourceFile,
    regions: &[Region],
    declare: &DeclarePlan,
    prelude: prelude::Mode,
    complex: bool,
) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "/* Generated by pragma2cuda {} from {}. Do not edit: edit the C source and translate again. */\n",
        env!("CARGO_PKG_VERSION"),
        crate::source::literal::in_comment(&file.name)
    ));
    let orphans = !declare.orphans.orphans.is_empty();
    if prelude == prelude::Mode::Include {
        out.push_str(&prelude::include_lines());
    } else {
        out.push_str(templates::DEVICE_PRELUDE);
        out.push_str(templates::HOST_PRELUDE);
        out.push_str(templates::RUNTIME_PRELUDE);
        let lastprivate = regions.iter().any(|r| {
            r.vars
                .iter()
                .any(|v| matches!(v.attr, crate::ir::c::Attr::Lastprivate { .. }))
        });
        if lastprivate || orphans || regions.iter().any(|r| r.generic.is_some()) {
            out.push_str(templates::GENERIC_PRELUDE);
        }
        if regions.iter().any(|r| !r.atomics.is_empty()) {
            out.push_str(templates::ATOMIC_PRELUDE);
        }
        out.push_str(templates::CXX_COMPAT);
    }
    if complex {
        out.push_str(complex::COMPLEX_COMPAT);
    }
    if orphans {
        out.push_str(&orphan::support(&declare.orphans));
    }
    out.push_str(&serial::locks(
        regions
            .iter()
            .filter_map(|r| r.generic.as_ref())
            .flat_map(|g| g.serials.iter()),
    ));
    out.push_str("/* ---- translated source ---- */\n");
    out
}

/// The CUDA of one region: its kernel (with the device functions it needs)
/// and the host block that replaces its pragma and statement, before
/// indentation. The file emitter and the editor's one-region view both
/// call this, so the view shows what the file gets.
pub struct RegionText {
    pub kernel: String,
    pub host: String,
}

/// Whether an edit lies inside one of `spans` (an insertion at a span's
/// end or start is outside). One binary search and, with nested spans, a
/// few steps back, instead of a scan of every span per edit.
fn spans_holding(mut spans: Vec<Span>) -> impl Fn(&Edit) -> bool {
    spans.sort_by_key(|s| s.start);
    let mut reach = Vec::with_capacity(spans.len());
    let mut max_end = 0;
    for s in &spans {
        max_end = max_end.max(s.end);
        reach.push(max_end);
    }
    move |e: &Edit| {
        let k = spans.partition_point(|s| s.start <= e.span.start);
        (0..k)
            .rev()
            .take_while(|&j| reach[j] >= e.span.end)
            .any(|j| {
                let s = spans[j];
                e.span.end <= s.end
                    && !(e.span.is_empty() && (e.span.start == s.start || e.span.start == s.end))
            })
    }
}

/// The edits of `edits` (in text order) that start within `r`'s pragma and
/// statement: the only ones rendering `r` reads.
fn region_edits<'e>(r: &Region, edits: &'e [Edit]) -> &'e [Edit] {
    let lo = r.pragma.start.min(r.stmt.start);
    let hi = r.pragma.end.max(r.stmt.end);
    let a = edits.partition_point(|e| e.span.start < lo);
    let b = edits.partition_point(|e| e.span.start <= hi);
    &edits[a..b.max(a)]
}

/// Renders one lowered region (see [`RegionText`]). `cxx_edits` in text
/// order (by start). With `marks`, the text copied from the input is
/// marked for [`lines::resolve`].
pub fn render_region(
    r: &Region,
    file: &SourceFile,
    declare: &DeclarePlan,
    cxx_edits: &[Edit],
    namer: &mut namer::Namer,
    marks: bool,
) -> RegionText {
    let text = &file.text;
    let cxx_edits = region_edits(r, cxx_edits);
    // lastprivate(conditional:): mark the assignments in the body.
    let mut body_edits = cxx_edits.to_vec();
    for (i, spans) in &r.lastprivate_assigns {
        for s in spans {
            body_edits.push(Edit::insert(s.start, 5, region::lastprivate_marker(*i)));
            body_edits.push(Edit::insert(s.end, 95, ")"));
        }
    }
    for (sp, t) in &r.in_order {
        body_edits.push(Edit::replace(*sp, t.clone()));
    }
    for site in &r.atomics {
        let t = atomic::spell(site, &|s| apply(text, s, cxx_edits), namer);
        body_edits.extend(atomic::edits(site, t));
    }
    let body = apply_with(text, r.body, &body_edits, marks);
    let fallback = apply_with(text, r.stmt, cxx_edits, marks);
    let t = match &r.generic {
        Some(g) => generic::emit_generic(r, g, file, cxx_edits, namer, marks),
        None => region::emit_region(r, &body, &fallback, file.origin(r.pragma.start).0, namer),
    };
    // A kernel that calls a device function with a parallel construct
    // and has no master forking for it: that construct runs with one thread.
    let kernel = if !declare.orphans.orphans.is_empty()
        && r.calls
            .iter()
            .any(|(n, _)| declare.orphans.callers.contains(n))
        && r.generic
            .as_ref()
            .map_or(true, |g| g.orphan_cases.is_empty())
    {
        orphan::reset_in_kernel(&t.kernel, &r.kernel)
    } else {
        t.kernel
    };
    RegionText {
        kernel,
        host: t.host,
    }
}

/// The spaces and tabs that start the line holding `pos`.
fn indent_at(text: &str, pos: usize) -> String {
    let line_start = text[..pos.min(text.len())]
        .rfind('\n')
        .map(|i| i + 1)
        .unwrap_or(0);
    text[line_start..pos.min(text.len())]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// `pragma` extended over the pragmas after it in its arm `k` of `grp`
/// (nothing else stands between a pragma that ends an arm and the arm's
/// end: `attach` skipped only blanks, comments and masked pragmas).
fn through_arm(text: &str, grp: &cond::CondGroup, k: usize, pragma: Span) -> Span {
    let Some(next) = grp.lines.get(k + 1) else {
        return pragma;
    };
    let tail = text.get(pragma.end..next.start).unwrap_or("");
    match crate::source::mask::find_pragmas(tail).last() {
        Some(p) => Span::new(pragma.start, pragma.end + p.span.end),
        None => pragma,
    }
}

/// `span` widened to whole lines when nothing but blanks shares its lines.
fn whole_lines(text: &str, span: Span) -> Span {
    let b = text.as_bytes();
    let mut start = span.start.min(b.len());
    while start > 0 && matches!(b[start - 1], b' ' | b'\t') {
        start -= 1;
    }
    let mut end = span.end.min(b.len());
    while end < b.len() && matches!(b[end], b' ' | b'\t' | b'\r') {
        end += 1;
    }
    let line_start = start == 0 || b[start - 1] == b'\n';
    if line_start && end < b.len() && b[end] == b'\n' {
        Span::new(start, end + 1)
    } else {
        span
    }
}

/// The kernel of a region inside `#if` arms (that begin inside its function)
/// wrapped in the same arms, so that it is compiled exactly when its region
/// is: `#ifdef A` / `#else` / kernel / `#endif` for a pragma in the `#else`
/// arm. A kernel of an arm that is not compiled would be an unused static
/// function (a warning in nvcc and clang).
fn in_same_arms(text: &str, groups: &[cond::CondGroup], r: &Region, kernel: String) -> String {
    let mut open = String::new();
    let mut close = String::new();
    for (g, k) in cond::arms_around(groups, r.pragma.start) {
        let grp = &groups[g];
        if grp.span().start < r.function_start || grp.endif().is_none() {
            continue;
        }
        for line in &grp.lines[..=k] {
            open.push_str(text.get(line.start..line.end).unwrap_or(""));
            open.push('\n');
        }
        close.insert_str(0, "#endif\n");
    }
    if open.is_empty() {
        return kernel;
    }
    format!("{open}{kernel}{close}")
}
