//! Runs the pipeline stages in order. The only module that knows all stages.

use crate::diag::{codes, Diagnostic, Diagnostics};
use crate::directives::{self, Directive};
use crate::emit::{self, emit_file, namer::Namer};
use crate::front::{attach, parse_c, Attached, CTree};
use crate::ir::data::{DataKind, DataOp};
use crate::ir::declare::DeclarePlan;
use crate::ir::reduction::Strategy;
use crate::ir::Region;
use crate::lower::build::{self, build_region, Kind};
use crate::lower::cxx;
use crate::lower::data::build_data;
use crate::lower::declare;
use crate::lower::plan;
use crate::lower::{atomic, generic, split};
use crate::report;
use crate::sema::sharing::DataEnv;
use crate::source::{cond, macros, mask, SourceFile, Span};
use crate::valid;

mod editor;
mod renames;
pub use editor::{EditorSession, RegionDetails, RegionSummary};
use std::collections::HashMap;

/// What to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Emit {
    #[default]
    Cuda,
    Directives,
    DirectivesJson,
    Plan,
    /// The plan of every region as JSON (`--emit=plan-json`).
    PlanJson,
    /// The reductions of every region in seed 001's abstract form.
    Reductions,
    /// Data-sharing attributes, homes and rules of every variable (`--emit=sharing`).
    Sharing,
    SharingJson,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub emit: Emit,
    /// How reductions combine across workers and gangs.
    pub reduction_strategy: Strategy,
    /// Bytes of shared memory a team's staged variables may take in generic
    /// mode (`--shared-budget`); the rest go to a per-team global frame.
    pub shared_budget: u64,
    /// Embed the prelude (default) or include `pragma2cuda_prelude.cuh`.
    pub prelude: emit::prelude::Mode,
    /// `#line` directives in the CUDA output (default; `--no-line-directives`
    /// turns them off): copied lines name the input's file and line,
    /// generated lines the output's (`emit::lines`).
    pub line_directives: bool,
    /// The output's name for the `#line` directives of generated lines
    /// (`-o`); `None` is standard output, written `<stdout>`.
    pub output_name: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            emit: Emit::Cuda,
            reduction_strategy: Strategy::default(),
            shared_budget: generic::DEFAULT_SHARED_BUDGET,
            prelude: emit::prelude::Mode::Embed,
            line_directives: true,
            output_name: None,
        }
    }
}

/// The result of a translation: the output text (absent when errors made it
/// impossible) and every diagnostic, sorted by position.
#[derive(Clone, Debug)]
pub struct Translation {
    pub output: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Translation {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// One region lowered by itself, for an editor.
#[derive(Clone, Debug)]
pub struct RegionView {
    pub pragma: crate::source::Span,
    pub plan: String,
    pub cuda: String,
}

/// Everything the pipeline knows about a file, computed once.
struct Analysis {
    tree: CTree,
    /// Every directive, in text order, with its statement.
    attached: Vec<Attached>,
    /// Per attached directive: its pragma or validation had an error (not lowered).
    rejected: Vec<bool>,
    /// The file nests deeper than the limits (E0005): nothing else is done.
    too_deep: bool,
    /// Metadirectives replaced by their variant (front::metadirective):
    /// (pragma, its text on one line).
    resolved: Vec<crate::front::metadirective::Resolved>,
}

impl Analysis {
    /// The analysis of a file refused for its nesting (E0005): no tree, no
    /// directives, nothing for a later stage to walk.
    fn too_deep(tree: CTree) -> Self {
        Analysis {
            tree,
            attached: Vec::new(),
            rejected: Vec::new(),
            too_deep: true,
            resolved: Vec::new(),
        }
    }
}

fn analyse(file: &SourceFile, diags: &mut Vec<Diagnostic>) -> Analysis {
    if let Some(d) = crate::source::nesting::check(&file.text) {
        diags.push(d);
        return Analysis::too_deep(CTree {
            tree: None,
            text: String::new(),
        });
    }
    if let Some(at) = mask::unterminated_comment(&file.text) {
        diags.push(
            Diagnostic::new(codes::UNTERMINATED_COMMENT, at, "unterminated comment")
                .with_label("this `/*` is never closed")
                .with_help("close the comment with `*/`; everything after it would be a comment"),
        );
    }
    let found = macros::find_all(&file.text);
    // Each directive with whether its pragma text had an error.
    let mut parsed_all: Vec<(Directive, bool)> = Vec::new();
    for p in &found.pragmas {
        let (d, ds) = directives::parse_pragma(&file.text, p.span);
        let bad = ds.iter().any(Diagnostic::is_error);
        diags.extend(ds);
        if let Some(d) = d {
            parsed_all.push((d, bad));
        }
    }
    // A macro's pragma is parsed once (its diagnostics point into the
    // `#define`), then placed at every use.
    let mut parsed: HashMap<Span, Option<(Directive, bool)>> = HashMap::new();
    for m in &found.from_macros {
        let d = parsed.entry(m.text).or_insert_with(|| {
            let (d, ds) = directives::parse_pragma(&file.text, m.text);
            let bad = ds.iter().any(Diagnostic::is_error);
            diags.extend(ds);
            d.map(|d| (d, bad))
        });
        if let Some((d, bad)) = d {
            let mut d = d.clone();
            d.span = m.use_span;
            parsed_all.push((d, *bad));
        }
    }
    parsed_all.sort_by_key(|(d, _)| d.span.start);
    let (directives, malformed): (Vec<Directive>, Vec<bool>) = parsed_all.into_iter().unzip();
    macro_diagnostics(&found, diags);
    let tree = parse_c(mask::mask_spans(&file.text, &found.masked_spans()));
    if let Some(d) = tree.root().and_then(crate::front::depth::check) {
        diags.push(d);
        return Analysis::too_deep(tree);
    }
    // Attached owns the directives: no copy of them is kept.
    let mut attached = attach(&tree, directives);
    let resolved = crate::front::metadirective::resolve(file, &mut attached, diags);
    let report = valid::validate(file, &tree, &attached, &malformed);
    diags.extend(report.diagnostics);
    Analysis {
        tree,
        attached,
        rejected: report.rejected,
        too_deep: false,
        resolved,
    }
}

/// Reports the macro uses that hide a pragma pragma2cuda does not expand
/// (a macro of the file it cannot expand, or one the file does not define).
fn macro_diagnostics(found: &macros::Found, diags: &mut Vec<Diagnostic>) {
    const HELP: &str = "translate with `--preprocess` (and the -I/-D/-U flags of your build): the C preprocessor expands the macro first";
    for u in &found.opaque {
        diags.push(
            Diagnostic::new(
                codes::MACRO_PRAGMA,
                u.use_span,
                format!(
                    "the pragma from macro `{}` is not translated: pragma2cuda expands only macros whose body is `_Pragma(\"...\")` operators or `_Pragma(#x)`",
                    u.name
                ),
            )
            .with_label("pragma macro used here")
            .with_secondary(u.define_span, "defined here")
            .with_help(HELP),
        );
    }
    for u in &found.unknown {
        let d = if u.pragma_argument {
            Diagnostic::new(
                codes::MACRO_PRAGMA,
                u.use_span,
                format!(
                    "this pragma comes from macro `{}`, which this file does not define",
                    u.name
                ),
            )
            .with_label("macro not defined in this file")
        } else {
            Diagnostic::new(
                codes::UNKNOWN_MACRO,
                u.use_span,
                format!(
                    "`{}` before this loop is not defined in this file; if it is a macro that expands to a pragma, pragma2cuda cannot see it",
                    u.name
                ),
            )
            .with_label("macro not defined in this file")
        };
        diags.push(d.with_help(HELP));
    }
}

/// The span of a generic-mode region (pragma to end of statement) and the
/// directives inside it, which its lowering takes over.
fn nested_in<'a>(a: &'a Analysis, at: &Attached) -> (Span, Vec<&'a Attached>) {
    let d = &at.directive;
    let whole = Span::new(d.span.start, at.stmt.map(|s| s.end).unwrap_or(d.span.end));
    let nested = a
        .attached
        .iter()
        .filter(|n| {
            n.directive.span != d.span
                && whole.start <= n.directive.span.start
                && n.directive.span.end <= whole.end
        })
        .collect();
    (whole, nested)
}

/// A loop construct that one thread of an SPMD loop may run in order: `omp
/// simd` and `acc loop seq` with no clause that gives a variable an
/// attribute (a private copy per lane would be shared by the thread's
/// iterations otherwise).
fn runs_in_order(d: &Directive) -> bool {
    let ok = |names: &[&str]| d.clauses.iter().all(|c| names.contains(&c.name.as_str()));
    match d.model {
        directives::Model::Omp => d.name == "simd" && ok(&["safelen", "simdlen", "collapse"]),
        directives::Model::Acc => {
            d.name == "loop" && d.clause("seq").is_some() && ok(&["seq", "collapse"])
        }
    }
}

/// The atomic constructs among `nested`, lowered (`lower::atomic`), and the
/// other directives.
fn take_atomics<'a>(
    file: &SourceFile,
    tree: &CTree,
    nested: Vec<&'a Attached>,
    default_order: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<&'a Attached>, Vec<crate::ir::atomic::AtomicSite>) {
    let mut rest = Vec::new();
    let mut sites = Vec::new();
    for n in nested {
        if atomic::is_atomic(&n.directive) {
            if let Some(s) = atomic::lower(file, tree, &n.directive, n.stmt, default_order, diags) {
                sites.push(s);
            }
        } else {
            rest.push(n);
        }
    }
    (rest, sites)
}

/// Everything lowering decided for one file.
pub(crate) struct Lowered {
    pub regions: Vec<Region>,
    pub data: Vec<DataOp>,
    pub declare: DeclarePlan,
}

/// Runtime routines that map data outside any structured construct.
const DYNAMIC_MAPPING_CALLS: &[&str] = &[
    "acc_copyin",
    "acc_create",
    "acc_pcopyin",
    "acc_pcreate",
    "acc_present_or_copyin",
    "acc_present_or_create",
    "acc_map_data",
];

/// The data environment a region at `at` sees: device variables, what the
/// data constructs around it map, whether the file maps data dynamically.
fn data_env(
    (file, a): (&SourceFile, &Analysis),
    at: &Attached,
    data: &[DataOp],
    declare: &DeclarePlan,
    unstructured: bool,
) -> DataEnv {
    let pos = at.directive.span.start;
    let func = at.function.as_ref().map(|f| f.0.as_str()).unwrap_or("");
    let mut enclosing = std::collections::BTreeSet::new();
    let mut device_ptrs = std::collections::BTreeSet::new();
    for op in data {
        let covers = match (op.kind, op.stmt) {
            (DataKind::Region, Some(stmt)) => op.pragma.start < pos && pos < stmt.end,
            (DataKind::DeclareScope, _) => op.function == func && op.pragma.start < pos,
            _ => false,
        };
        if covers {
            enclosing.extend(op.mapped_names().map(str::to_string));
            device_ptrs.extend(op.device_ptrs.iter().cloned());
        }
    }
    DataEnv {
        declared: declare.vars.iter().map(|v| v.name.clone()).collect(),
        enclosing,
        unstructured,
        // With `if` / `self` the region may run on the host, where such a
        // pointer is fine: the run-time lookup stays, for the device path.
        never_mapped: if unstructured
            && at.directive.clause("if").is_none()
            && at.directive.clause("self").is_none()
        {
            never_mapped_in(file, a, at)
        } else {
            Default::default()
        },
        device_ptrs,
    }
}

/// The local pointers of the function around `at` that cannot point into
/// mapped data (`sema::fresh_pointer`).
fn never_mapped_in(
    file: &SourceFile,
    a: &Analysis,
    at: &Attached,
) -> std::collections::BTreeSet<String> {
    let (Some((_, span)), Some(root)) = (&at.function, a.tree.root()) else {
        return Default::default();
    };
    let mut func = root.descendant_for_byte_range(span.start, span.end);
    while let Some(n) = func.filter(|n| n.kind() != "function_definition") {
        func = n.parent();
    }
    let Some(func) = func else {
        return Default::default();
    };
    let pragmas: Vec<&str> = a
        .attached
        .iter()
        .filter(|d| span.start <= d.directive.span.start && d.directive.span.end <= span.end)
        .map(|d| file.slice(d.directive.span))
        .collect();
    crate::sema::fresh_pointer::never_mapped(func, &file.text, &pragmas)
}

/// A metadirective whose variant is host code (or `nothing`): its pragma
/// becomes the variant's, after a comment that says what it was. Variants
/// that are lowered replace the pragma with the host code of the construct.
fn resolved_in_host_code(a: &Analysis, declare: &mut DeclarePlan) {
    for r in &a.resolved {
        let Some(at) = a.attached.iter().find(|at| at.directive.span == r.pragma) else {
            continue;
        };
        let d = &at.directive;
        if !matches!(
            build::classify(d, at.function.is_some()),
            Kind::HostPassthrough
        ) {
            continue;
        }
        let mut t = format!(
            "/* pragma2cuda: `{}` selects `{}` in host code */",
            r.text, r.variant
        );
        if d.name != "nothing" {
            t.push_str(&format!("\n#pragma {}", r.variant));
        }
        declare.rewrites.push((r.pragma, t));
    }
}

/// Lowers every offloaded region and data construct; reads the declarations
/// for the device; passes host-only OpenMP through; reports the rest.
/// Directives nested in a lowered region are not supported yet (data
/// constructs are not regions: what they cover is lowered as usual).
/// A directive with a parse or validation error is not lowered (it has its
/// diagnostic; lowering would only report consequences of it);
/// its region still counts as claimed, so what is nested in it is not taken
/// for host code.
fn lower_all(
    file: &SourceFile,
    a: &Analysis,
    opts: &Options,
    namer: &mut Namer,
    diags: &mut Vec<Diagnostic>,
) -> Lowered {
    let mut declare = declare::collect(file, &a.tree, &a.attached, diags);
    resolved_in_host_code(a, &mut declare);
    let default_order =
        crate::lower::requires::default_mem_order(a.attached.iter().map(|at| &at.directive));
    let unstructured = a.attached.iter().any(|at| {
        matches!(
            build::classify(&at.directive, at.function.is_some()),
            Kind::Data(DataKind::Enter | DataKind::Exit)
        )
    }) || DYNAMIC_MAPPING_CALLS
        .iter()
        .any(|c| crate::source::mask::mentions_word(&file.text, c));
    let mut regions = Vec::new();
    let mut data: Vec<DataOp> = Vec::new();
    // (pragma start .. statement end, statement) of every lowered region.
    let mut claimed: Vec<(Span, Span)> = Vec::new();
    let mut groups: Option<Vec<cond::CondGroup>> = None;
    let threadprivate =
        crate::sema::threadprivate::names(a.attached.iter().map(|at| &at.directive));
    // Generic-mode regions lower the directives nested in them.
    let mut generic_claimed: Vec<Span> = Vec::new();
    for (i, at) in a.attached.iter().enumerate() {
        let d = &at.directive;
        if generic_claimed
            .iter()
            .any(|s| s.start <= d.span.start && d.span.end <= s.end)
        {
            continue;
        }
        if a.rejected.get(i).copied().unwrap_or(false) {
            let offload = matches!(build::classify(d, at.function.is_some()), Kind::Offload)
                || generic::handles(d);
            if let (true, Some(stmt)) = (offload, at.stmt) {
                claimed.push((Span::new(d.span.start, stmt.end), stmt));
            }
            continue;
        }
        let inside = claimed
            .iter()
            .find(|(s, _)| s.start <= d.span.start && d.span.end <= s.end)
            .copied();
        // Pragmas in different arms of one `#if` group that govern the same
        // statement after its `#endif` are alternatives, not nested.
        let alternative = |(outer, stmt): (Span, Span),
                           groups: &mut Option<Vec<cond::CondGroup>>| {
            if at.stmt != Some(stmt) {
                return false;
            }
            let gs = groups.get_or_insert_with(|| cond::groups(&file.text));
            let mine = cond::shared_statement(gs, d.span, stmt);
            let theirs = cond::shared_statement(gs, Span::new(outer.start, outer.start), stmt);
            matches!((mine, theirs), (Some((g1, k1)), Some((g2, k2))) if g1 == g2 && k1 != k2)
        };
        let inside = inside
            .filter(|c| !alternative(*c, &mut groups))
            .map(|c| c.0);
        if let Some(outer) = inside {
            diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    d.name_span,
                    format!(
                        "`{} {}` nested inside an offloaded region is not supported yet",
                        d.model.as_str(),
                        d.name
                    ),
                )
                .with_label("nested directive")
                .with_secondary(
                    Span::new(outer.start, outer.start),
                    "inside the region that starts here",
                ),
            );
            continue;
        }
        if generic::handles(d) {
            let kernel = kernel_name(file, at, namer);
            let (whole, nested) = nested_in(a, at);
            generic_claimed.push(whole);
            let (nested, atomics) =
                take_atomics(file, &a.tree, nested, default_order.as_deref(), diags);
            let env = data_env((file, a), at, &data, &declare, unstructured);
            // Stacked on one statement, or closely nested in the braced
            // block (then the region is widened back to the block): the
            // combined construct, in SPMD mode.
            let combined = match generic::spmd_merge(at, &nested) {
                Some(m) => Some((m, false)),
                None => crate::lower::closely_nested::merge(&a.tree, at, &nested).map(|m| {
                    for item in &m.discarded {
                        diags.push(result_discarded(file, at, item));
                    }
                    (m.attached, true)
                }),
            };
            let built = match combined {
                Some((m, widen)) => build_region(
                    file,
                    &a.tree,
                    &m,
                    kernel,
                    &env,
                    opts.reduction_strategy,
                    diags,
                )
                .map(|r| {
                    if widen {
                        widen_to_block(file, r, at, &nested)
                    } else {
                        r
                    }
                }),
                None => build_generic_region(file, &a.tree, at, &nested, kernel, &env, opts, diags),
            };
            if let Some(mut r) = built {
                crate::sema::threadprivate::check(&r.vars, r.pragma, &threadprivate, diags);
                r.atomics = atomics;
                regions.push(r);
            }
            continue;
        }
        if matches!(build::classify(d, at.function.is_some()), Kind::Offload) {
            // Directives nested in a combined loop construct: atomics stay
            // in the SPMD loop; anything else makes the construct a compute
            // construct plus a loop construct in generic mode.
            // A directive on the same statement is an alternative in
            // another `#if` arm (see `alternative` above), not nested.
            let (_, nested) = nested_in(a, at);
            let nested: Vec<&Attached> = nested.into_iter().filter(|n| n.stmt != at.stmt).collect();
            // Atomics, and `omp simd` / `acc loop seq` without data
            // clauses (each thread runs its iteration's loop in order), keep
            // the construct SPMD.
            let spmd_ok =
                |n: &&Attached| atomic::is_atomic(&n.directive) || runs_in_order(&n.directive);
            let split = if !nested.iter().all(spmd_ok) {
                split::split(at, &nested)
            } else {
                None
            };
            // A nested directive with a validation error is never lowered:
            // the region stays as it was (its nesting reported below).
            let rejected = nested.iter().any(|n| {
                a.attached
                    .iter()
                    .position(|x| x.directive.span == n.directive.span)
                    .is_some_and(|k| a.rejected.get(k).copied().unwrap_or(false))
            });
            if !rejected && !nested.is_empty() && (split.is_some() || nested.iter().all(spmd_ok)) {
                generic_claimed.extend(nested.iter().map(|n| n.directive.span));
                if let Some(stmt) = at.stmt {
                    claimed.push((Span::new(d.span.start, stmt.end), stmt));
                }
                let (nested, atomics) =
                    take_atomics(file, &a.tree, nested, default_order.as_deref(), diags);
                let in_order: Vec<(Span, String)> = if split.is_none() {
                    nested
                        .iter()
                        .map(|n| {
                            (
                                n.directive.span,
                                format!(
                                    "/* {}: each thread runs the loop of its iteration in order */",
                                    crate::source::pragma_text::pragma_one_line(
                                        file.slice(n.directive.span)
                                    )
                                ),
                            )
                        })
                        .collect()
                } else {
                    vec![]
                };
                let kernel = kernel_name(file, at, namer);
                let env = data_env((file, a), at, &data, &declare, unstructured);
                let built = match &split {
                    Some((compute, lp)) => {
                        let mut inner: Vec<&Attached> = vec![lp];
                        inner.extend(nested.iter().copied());
                        build_generic_region(
                            file, &a.tree, compute, &inner, kernel, &env, opts, diags,
                        )
                    }
                    None => build_region(
                        file,
                        &a.tree,
                        at,
                        kernel,
                        &env,
                        opts.reduction_strategy,
                        diags,
                    ),
                };
                if let Some(mut r) = built {
                    crate::sema::threadprivate::check(&r.vars, r.pragma, &threadprivate, diags);
                    r.atomics = atomics;
                    r.in_order = in_order;
                    regions.push(r);
                }
                continue;
            }
        }
        if crate::lower::requires::is_requires(d) {
            // Provided requirements stay in the host code as written.
            crate::lower::requires::check(d, diags);
            continue;
        }
        match build::classify(d, at.function.is_some()) {
            Kind::HostPassthrough | Kind::Declare => {}
            Kind::NotSupported => diags.push(
                Diagnostic::new(codes::NOT_SUPPORTED, d.name_span, format!("`{} {}` is not supported yet", d.model.as_str(), d.name))
                    .with_label("not lowered yet")
                    .with_note("lowered so far: omp target teams distribute parallel for [simd], target parallel for [simd], target teams distribute, target / target teams / target parallel with nested constructs, target data, target enter/exit data, target update, declare target; acc parallel loop, kernels loop, serial loop, parallel / serial with nested loops, data, enter/exit data, update, declare, routine"),
            ),
            Kind::Data(DataKind::Runtime) => {
                data.extend(crate::lower::acc_runtime::build(file, at, diags));
            }
            Kind::Data(kind) => {
                if let Some(op) = build_data(file, &a.tree, at, kind, diags) {
                    data.push(op);
                }
            }
            Kind::Offload => {
                let kernel = kernel_name(file, at, namer);
                if let Some(stmt) = at.stmt {
                    claimed.push((Span::new(d.span.start, stmt.end), stmt));
                }
                let env = data_env((file, a), at, &data, &declare, unstructured);
                if let Some(r) = build_region(file, &a.tree, at, kernel, &env, opts.reduction_strategy, diags) {
                    crate::sema::threadprivate::check(&r.vars, r.pragma, &threadprivate, diags);
                    regions.push(r);
                }
            }
        }
    }
    let calls: Vec<(String, Span)> = regions.iter().flat_map(|r| r.calls.clone()).collect();
    declare::add_called(&mut declare, file, &a.tree, &calls, diags);
    // Parallel constructs in the device functions: outlined bodies that the
    // workers of the regions reaching them dispatch.
    let device_fns: std::collections::BTreeSet<String> =
        declare.fns.iter().map(|f| f.name.clone()).collect();
    let region_spans: Vec<Span> = regions
        .iter()
        .map(|r| Span::new(r.pragma.start, r.stmt.end))
        .collect();
    declare.orphans = crate::lower::orphan::collect(
        file,
        &a.tree,
        &a.attached,
        &device_fns,
        &region_spans,
        diags,
    );
    crate::lower::orphan_shadow::apply(&mut declare);
    for o in &mut declare.orphans.orphans {
        o.outlined = namer.fresh(&format!("{}_parallel_L{}", o.function, o.line));
    }
    let cases: Vec<(u32, String)> = declare
        .orphans
        .orphans
        .iter()
        .map(|o| (o.id, o.outlined.clone()))
        .collect();
    for r in &mut regions {
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
    Lowered {
        regions,
        data,
        declare,
    }
}

/// Each offloaded region's text, from its pragma to the end of its statement.
/// The offloaded regions whose local declarations are the kernel's own
/// (generic mode with nested parallel regions stages those of its
/// sequential part).
fn kernel_locals(regions: &[Region]) -> Vec<Span> {
    offloaded_spans(regions)
        .into_iter()
        .zip(regions)
        .filter(|(_, r)| {
            r.generic
                .as_ref()
                .map_or(true, |g| g.forks.is_empty() && !g.reaches_orphans)
        })
        .map(|(s, _)| s)
        .collect()
}

fn offloaded_spans(regions: &[Region]) -> Vec<Span> {
    regions
        .iter()
        .map(|r| Span::new(r.pragma.start, r.stmt.end.max(r.pragma.end)))
        .collect()
}

/// W0005: the reduction into `item` inside `at`'s braced block updates the
/// region's firstprivate copy; the host never sees the result.
fn result_discarded(
    file: &SourceFile,
    at: &Attached,
    item: &crate::directives::ListItem,
) -> Diagnostic {
    let name = &item.name;
    let target = crate::source::pragma_text::pragma_one_line(file.slice(at.directive.name_span));
    Diagnostic::new(
        codes::RESULT_DISCARDED,
        item.span,
        format!("the result of this reduction stays on the device: `{name}` is not mapped by `{target}`, so it is firstprivate there and the host's `{name}` keeps its value"),
    )
    .with_label("reduced into the region's own copy")
    .with_secondary(at.directive.name_span, "no `map` of this variable here")
    .with_note(format!("add `map(tofrom: {name})` to the `target` directive to get the result back"))
}

/// A region built from a construct closely nested in `at`'s braced block
/// (`lower::closely_nested`) replaces the whole block, and its kernel quotes
/// both pragmas.
fn widen_to_block(file: &SourceFile, mut r: Region, at: &Attached, nested: &[&Attached]) -> Region {
    if let Some(stmt) = at.stmt {
        r.stmt = stmt;
    }
    for n in nested {
        let inner = crate::source::pragma_text::pragma_one_line(file.slice(n.directive.span));
        r.pragma_text = format!("{} {inner}", r.pragma_text);
    }
    r
}

/// The kernel of a region: named after the user's function and the
/// pragma's line (`main_L42`), made unique by the namer.
fn kernel_name(file: &SourceFile, at: &Attached, namer: &mut Namer) -> String {
    let func = at.function.as_ref().map_or("file", |f| f.0.as_str());
    let line = file.origin(at.directive.span.start).1;
    namer.fresh(&format!("{func}_L{line}"))
}

/// A generic-mode region and, when its compute construct reduces (across
/// teams: seed 001's NULL outermost gang loop), its gang-level reduction.
/// Every generic region is built here, so none can lose its combine.
#[allow(clippy::too_many_arguments)]
fn build_generic_region(
    file: &SourceFile,
    tree: &CTree,
    at: &Attached,
    nested: &[&Attached],
    kernel: String,
    env: &DataEnv,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
) -> Option<Region> {
    let mut r = generic::build_generic(
        file,
        tree,
        at,
        nested,
        kernel,
        opts.shared_budget,
        env,
        diags,
    )?;
    r.red = crate::lower::reduction::build(&r, opts.reduction_strategy);
    Some(r)
}

/// Shares one index of the file scope among the symbol lookups on this
/// file's tree (dropped before the tree: declare it after the analysis).
fn scope_cache(file: &SourceFile, a: &Analysis) -> Option<crate::sema::symbols::ScopeCache> {
    let root = a.tree.root()?;
    Some(crate::sema::symbols::ScopeCache::new(
        root,
        &[&file.text, &a.tree.text],
    ))
}

/// Translates one file. Never panics; returns the output with all diagnostics.
/// Runs on a thread with a stack for the nesting limits (`big_stack`).
pub fn translate(file: &SourceFile, opts: &Options) -> Translation {
    crate::big_stack::run(|| translate_pass(file, opts, true))
}

/// [`translate`]; with `rename`, a file whose offloaded regions use C++
/// keywords as names (`new`) is translated with those names renamed in its
/// whole text (`lower::cxx::keywords::region_renames`), its diagnostics
/// placed back on the original text.
fn translate_pass(file: &SourceFile, opts: &Options, rename: bool) -> Translation {
    let mut diags: Vec<Diagnostic> = Vec::new();
    let a = analyse(file, &mut diags);
    if a.too_deep {
        return Translation {
            output: None,
            diagnostics: diags,
        };
    }
    let _scopes = scope_cache(file, &a);
    let output = if report::of_directives(opts.emit) {
        report::directives(file, opts.emit, a.attached.iter().map(|at| &at.directive))
    } else {
        let mut namer = Namer::new(&file.text);
        let low = lower_all(file, &a, opts, &mut namer, &mut diags);
        let view = report::Lowered {
            regions: &low.regions,
            data: &low.data,
            declare: &low.declare,
        };
        match report::lowered(file, opts.emit, &a.tree, &view) {
            Some(text) => Some(text),
            None => {
                let offloaded = offloaded_spans(&low.regions);
                if rename {
                    let renames = renames::Renames::from_lowered(file, &a, &offloaded);
                    if !renames.is_empty() {
                        return translate_renamed(file, opts, &renames);
                    }
                }
                let cxx_plan = cxx::compat_edits(
                    &a.tree,
                    &file.text,
                    &offloaded,
                    &kernel_locals(&low.regions),
                    &mut namer,
                    &mut diags,
                );
                let mut lost = Vec::new();
                let out = emit_file(
                    file,
                    &low.regions,
                    &low.data,
                    &low.declare,
                    cxx_plan,
                    &mut namer,
                    &mut lost,
                    opts.prelude,
                    opts.line_directives
                        .then(|| opts.output_name.as_deref().unwrap_or("<stdout>")),
                );
                // A directive rejected by an earlier error is not lowered
                // on purpose; the check speaks only for a file that would
                // be written.
                if !diags.iter().any(|d| d.is_error()) {
                    diags.extend(lost);
                }
                Some(out)
            }
        }
    };
    let mut sink = Diagnostics::new();
    sink.extend(diags);
    let output = if sink.has_errors() { None } else { output };
    Translation {
        output,
        diagnostics: sink.into_sorted(),
    }
}

/// Translates `file` with `renames` (sorted, not overlapping) applied to its
/// text; the diagnostics' spans are mapped back to `file`.
fn translate_renamed(file: &SourceFile, opts: &Options, renames: &renames::Renames) -> Translation {
    let renamed = renames.apply(file);
    let mut t = translate_pass(&renamed, opts, false);
    renames.back_diagnostics(&mut t.diagnostics);
    t
}

/// Lowers the region whose pragma or statement contains `offset`, by itself.
/// Runs on a thread with a stack for the nesting limits (`big_stack`).
pub fn lower_region_at(file: &SourceFile, offset: usize) -> (Option<RegionView>, Vec<Diagnostic>) {
    crate::big_stack::run(|| lower_region_here(file, offset))
}

/// [`lower_region_at`] on the text the translation lowers (C++ keywords
/// used as names renamed), its answer placed back on the user's text.
fn lower_region_here(file: &SourceFile, offset: usize) -> (Option<RegionView>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let (renamed, a, renames) = renames::analyse_renamed(file, &mut diags);
    let lowered = renamed.as_ref().unwrap_or(file);
    let (mut view, mut diags) = lower_region_in(lowered, &a, renames.forward(offset), diags);
    if let Some(v) = &mut view {
        v.pragma = renames.back_span(v.pragma);
    }
    renames.back_diagnostics(&mut diags);
    (view, diags)
}

fn lower_region_in(
    file: &SourceFile,
    a: &Analysis,
    offset: usize,
    mut diags: Vec<Diagnostic>,
) -> (Option<RegionView>, Vec<Diagnostic>) {
    let _scopes = scope_cache(file, a);
    let Some(whole) = editor::target(a, offset) else {
        return (None, diags);
    };
    // The whole file is lowered as `translate` lowers it (the data
    // environment, names, splits and atomics are the file's), and the
    // regions are rendered in order up to this one, so the view is the
    // text the whole translation writes. Only diagnostics located in this
    // region are this region's. (`EditorSession` keeps this work for many
    // look-ups.)
    let here = |d: &Diagnostic| {
        let s = d.primary_span().start;
        whole.start <= s && s < whole.end.max(whole.start + 1)
    };
    let mut namer = Namer::new(&file.text);
    let mut elsewhere = Vec::new();
    let low = lower_all(file, a, &Options::default(), &mut namer, &mut elsewhere);
    let offloaded = offloaded_spans(&low.regions);
    let mut edits = cxx::compat_edits(
        &a.tree,
        &file.text,
        &offloaded,
        &kernel_locals(&low.regions),
        &mut namer,
        &mut elsewhere,
    )
    .edits;
    edits.sort_by_key(|e| e.span.start);
    diags.extend(elsewhere.into_iter().filter(|d| here(d)));
    let mut view = None;
    for r in &low.regions {
        let t = emit::render_region(r, file, &low.declare, &edits, &mut namer, false);
        if whole.start <= r.pragma.start && r.pragma.start < whole.end.max(whole.start + 1) {
            diags.extend(emit::guard::lost_directives(
                file, r.pragma, r.stmt, &t.kernel, &t.host,
            ));
            view = Some(RegionView {
                pragma: r.pragma,
                plan: plan::render(file, std::slice::from_ref(r), &[], &DeclarePlan::default()),
                cuda: format!("{}{}\n", t.kernel, t.host),
            });
            break;
        }
    }
    let mut sink = Diagnostics::new();
    sink.extend(diags);
    (view, sink.into_sorted())
}
