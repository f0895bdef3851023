//! Lowering of a whole file: which directive becomes an offloaded region, a
//! data construct or a device declaration, which stays host code, and what
//! is reported instead. The driver calls [`lower_file`] once on the analysed
//! file and hands the [`Module`] to the emitter or a report.
//!
//! Directives nested in a lowered region are not supported yet (data
//! constructs are not regions: what they cover is lowered as usual), except
//! where the region takes them over (`nested`). A directive with a parse or
//! validation error is not lowered (it has its diagnostic; lowering would
//! only report consequences of it); its region still counts as claimed, so
//! what is nested in it is not taken for host code.

mod env;
mod nested;
mod orphans;

use crate::diag::{codes, Diagnostic};
use crate::front::metadirective::Resolved;
use crate::front::{Attached, CTree};
use crate::ir::data::DataKind;
use crate::ir::declare::DeclarePlan;
use crate::ir::edit::{CxxPlan, FreshName};
use crate::ir::reduction::Strategy;
use crate::ir::{Module, Region};
use crate::lower::build::{self, build_region, Kind};
use crate::lower::{declare, generic};
use crate::sema::sharing::DataEnv;
use crate::source::{cond, SourceFile, Span};

/// The analysed file lowering reads: its tree, every directive with its
/// statement, which were rejected (parse or validation error), and the
/// metadirectives replaced by their variant.
pub struct Input<'a> {
    pub file: &'a SourceFile,
    pub tree: &'a CTree,
    pub attached: &'a [Attached],
    /// Per attached directive: its pragma or validation had an error.
    pub rejected: &'a [bool],
    pub resolved: &'a [Resolved],
}

/// The user's choices that change lowering.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// How reductions combine across workers and gangs.
    pub reduction_strategy: Strategy,
    /// Bytes of shared memory a team's staged variables may take in generic
    /// mode; the rest go to a per-team global frame.
    pub shared_budget: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            reduction_strategy: Strategy::default(),
            shared_budget: generic::DEFAULT_SHARED_BUDGET,
        }
    }
}

/// What every directive's lowering reads: the input, the settings and the
/// facts of the whole file.
struct Cx<'a> {
    input: &'a Input<'a>,
    settings: Settings,
    /// `requires atomic_default_mem_order`, if the file has one.
    default_order: Option<String>,
    /// The file maps data outside structured constructs (`env`).
    unstructured: bool,
    /// `omp requires unified_shared_memory` or `unified_address`.
    unified: bool,
    threadprivate: Vec<(String, Span)>,
}

impl Cx<'_> {
    fn default_order(&self) -> Option<&str> {
        self.default_order.as_deref()
    }

    /// E-diagnostics for threadprivate variables a region uses.
    fn check_threadprivate(&self, r: &Region, diags: &mut Vec<Diagnostic>) {
        crate::sema::threadprivate::check(&r.vars, r.pragma, &self.threadprivate, diags);
    }
}

/// What the walk over the directives has built so far, and the namer it
/// takes kernel names from.
struct Walk<'n> {
    namer: &'n mut dyn FreshName,
    regions: Vec<Region>,
    data: Vec<crate::ir::data::DataOp>,
    declare: DeclarePlan,
    /// (pragma start .. statement end, statement) of every lowered region.
    claimed: Vec<(Span, Span)>,
    /// The directives generic-mode regions (and the split constructs) lower.
    generic_claimed: Vec<Span>,
    /// The file's `#if` groups, computed when first needed.
    groups: Option<Vec<cond::CondGroup>>,
    /// Host `teams` constructs passed through (`lower::host_teams`).
    host_teams: crate::lower::host_teams::HostTeams,
}

/// Lowers every offloaded region and data construct; reads the declarations
/// for the device; passes host-only OpenMP through; reports the rest.
pub fn lower_file(
    input: &Input,
    settings: Settings,
    namer: &mut dyn FreshName,
    diags: &mut Vec<Diagnostic>,
) -> Module {
    let mut declare = declare::collect(input.file, input.tree, input.attached, diags);
    resolved_in_host_code(input, &mut declare);
    let cx = Cx {
        input,
        settings,
        default_order: crate::lower::requires::default_mem_order(
            input.attached.iter().map(|at| &at.directive),
        ),
        unstructured: env::maps_dynamically(input),
        unified: crate::lower::requires::unified_memory(
            input.attached.iter().map(|at| &at.directive),
        ),
        threadprivate: crate::sema::threadprivate::names(
            input.attached.iter().map(|at| &at.directive),
        ),
    };
    let mut w = Walk {
        namer,
        regions: Vec::new(),
        data: Vec::new(),
        declare,
        claimed: Vec::new(),
        generic_claimed: Vec::new(),
        groups: None,
        host_teams: Default::default(),
    };
    for (i, at) in input.attached.iter().enumerate() {
        if !w.passed_over(&cx, i, at, diags) {
            directive(&cx, &mut w, at, diags);
        }
    }
    metadirective_in_fallback(input, &w.regions, diags);
    crate::lower::target_tasks::settle(
        input.file,
        input.attached,
        &mut w.regions,
        &mut w.data,
        &mut w.declare.rewrites,
    );
    orphans::finish(input, &mut w.regions, &mut w.declare, w.namer, diags);
    Module {
        regions: w.regions,
        data: w.data,
        declare: w.declare,
    }
}

impl Walk<'_> {
    /// Whether the directive `i` is not lowered by itself: taken over by a
    /// region, rejected, or nested in a region (E0901).
    fn passed_over(
        &mut self,
        cx: &Cx,
        i: usize,
        at: &Attached,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let d = &at.directive;
        if self
            .generic_claimed
            .iter()
            .any(|s| s.start <= d.span.start && d.span.end <= s.end)
        {
            return true;
        }
        if cx.input.rejected.get(i).copied().unwrap_or(false) {
            let offload = matches!(build::classify(d, at.function.is_some()), Kind::Offload)
                || generic::handles(d);
            if let (true, Some(stmt)) = (offload, at.stmt) {
                self.claimed.push((Span::new(d.span.start, stmt.end), stmt));
            }
            return true;
        }
        let Some(outer) = self.inside_region(cx.input.file, at) else {
            return false;
        };
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
        true
    }

    /// The lowered region `at` is nested in. Pragmas in different arms of
    /// one `#if` group that govern the same statement after its `#endif`
    /// are alternatives, not nested.
    fn inside_region(&mut self, file: &SourceFile, at: &Attached) -> Option<Span> {
        let d = &at.directive;
        let (outer, stmt) = self
            .claimed
            .iter()
            .find(|(s, _)| s.start <= d.span.start && d.span.end <= s.end)
            .copied()?;
        if at.stmt != Some(stmt) {
            return Some(outer);
        }
        let gs = self.groups.get_or_insert_with(|| cond::groups(&file.text));
        let mine = cond::shared_statement(gs, d.span, stmt);
        let theirs = cond::shared_statement(gs, Span::new(outer.start, outer.start), stmt);
        let alternative =
            matches!((mine, theirs), (Some((g1, k1)), Some((g2, k2))) if g1 == g2 && k1 != k2);
        (!alternative).then_some(outer)
    }
}

/// Lowers one directive that is not nested in a region.
fn directive(cx: &Cx, w: &mut Walk, at: &Attached, diags: &mut Vec<Diagnostic>) {
    let a = cx.input;
    let d = &at.directive;
    if generic::handles(d) {
        if d.model == crate::directives::Model::Omp && d.clause("in_reduction").is_some() {
            in_reduction_region(cx, w, at, diags);
        } else {
            nested::generic_region(cx, w, at, diags);
        }
        return;
    }
    let kind = build::classify(d, at.function.is_some());
    if matches!(kind, Kind::Offload) && nested::offload_with_nested(cx, w, at, diags) {
        return;
    }
    if crate::lower::requires::is_requires(d) {
        // Provided requirements stay in the host code as written, or become
        // the prelude's checks at program start.
        let (name, line) = a.file.origin(d.span.start);
        let where_ = format!("{name}:{line}");
        let lowered = crate::lower::requires::lower(
            d,
            &a.file.text,
            &where_,
            line,
            at.function.is_some(),
            diags,
        );
        if let Some(text) = lowered.rewrite {
            w.declare.rewrites.push((d.span, text));
        }
        w.declare.notes.extend(lowered.notes);
        return;
    }
    if matches!(kind, Kind::NotSupported) {
        let in_function = at.function.is_some();
        if let Some(rw) = w.host_teams.take(a.file, d, in_function, at.stmt) {
            w.declare.rewrites.push(rw);
            return;
        }
    }
    match kind {
        Kind::HostPassthrough | Kind::Declare => {}
        Kind::NotSupported => diags.push(
            Diagnostic::new(codes::NOT_SUPPORTED, d.name_span, format!("`{} {}` is not supported yet", d.model.as_str(), d.name))
                .with_label("not lowered yet")
                .with_note("lowered so far: omp target teams distribute parallel for [simd], target parallel for [simd], target teams distribute, target / target teams / target parallel with nested constructs, target data, target enter/exit data, target update, declare target; acc parallel loop, kernels loop, serial loop, parallel / serial with nested loops, data, enter/exit data, update, declare, routine"),
        ),
        Kind::Data(DataKind::Runtime) => {
            w.data.extend(crate::lower::acc_runtime::build(a.file, at, diags));
        }
        Kind::Data(kind) => {
            if let Some(op) = crate::lower::data::build_data(a.file, a.tree, at, kind, diags) {
                w.data.push(op);
            }
        }
        Kind::Offload => {
            let kernel = kernel_name(a.file, at, w.namer);
            if let Some(stmt) = at.stmt {
                w.claimed.push((Span::new(d.span.start, stmt.end), stmt));
            }
            let env = env::data_env(a, at, &w.data, &w.declare, (cx.unstructured, cx.unified));
            let strategy = cx.settings.reduction_strategy;
            if let Some(r) = build_region(a.file, a.tree, at, kernel, &env, strategy, diags) {
                cx.check_threadprivate(&r, diags);
                w.regions.push(r);
            }
        }
    }
}

/// A target construct with `in_reduction` (generic mode): its items mapped
/// `tofrom`, its host block an included task with the same clauses
/// (`asynchrony::omp_in_reduction_task`). With an `if` clause the host
/// fallback would run outside that task: E0901.
fn in_reduction_region(cx: &Cx, w: &mut Walk, at: &Attached, diags: &mut Vec<Diagnostic>) {
    use crate::directives::{ClauseArgs, Word};
    let d = &at.directive;
    if let Some(c) = d.clause("if") {
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                c.span,
                format!(
                    "`in_reduction` with an `if` clause on `omp {}` is not supported yet",
                    d.name
                ),
            )
            .with_label("not lowered yet"),
        );
        return;
    }
    let mut m = at.clone();
    for c in m
        .directive
        .clauses
        .iter_mut()
        .filter(|c| c.name == "in_reduction")
    {
        let items = c.items().to_vec();
        c.name = "map".into();
        c.args = ClauseArgs::List {
            modifiers: vec![Word {
                text: "tofrom".into(),
                span: c.name_span,
            }],
            items,
        };
    }
    let before = w.regions.len();
    nested::generic_region(cx, w, &m, diags);
    if w.regions.len() > before {
        if let Some(r) = w.regions.last_mut() {
            r.reduction_task =
                crate::lower::asynchrony::omp_in_reduction_task(d, &cx.input.file.text);
        }
    }
}

/// A metadirective whose variant is host code (or `nothing`): its pragma
/// becomes the variant's, after a comment that says what it was. Variants
/// that are lowered replace the pragma with the host code of the construct.
fn resolved_in_host_code(a: &Input, declare: &mut DeclarePlan) {
    for r in a.resolved.iter().filter(|r| !r.on_device) {
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

/// A metadirective resolved for the GPU inside a region that also runs on
/// the host (an `if` clause, or a `device` clause that may name the host):
/// the host copy of the block would keep the GPU's variant or the pragma
/// itself, so it is refused until the host copy is resolved for the host.
fn metadirective_in_fallback(a: &Input, regions: &[Region], diags: &mut Vec<Diagnostic>) {
    for r in regions.iter().filter(|r| r.if_cond.is_some()) {
        let whole = Span::new(r.pragma.start.min(r.stmt.start), r.stmt.end);
        for m in a.resolved.iter().filter(|m| m.on_device) {
            if whole.start <= m.pragma.start && m.pragma.end <= whole.end {
                diags.push(
                    Diagnostic::new(
                        codes::NOT_SUPPORTED,
                        m.pragma,
                        "`omp metadirective` in a region that may run on the host (an `if` or \
                         `device` clause) is not supported yet"
                            .to_string(),
                    )
                    .with_label("resolved for the GPU only")
                    .with_secondary(
                        Span::new(r.pragma.start, r.pragma.start),
                        "the region's host copy would need the host's variant",
                    ),
                );
            }
        }
    }
}

/// The kernel of a region: named after the user's function and the
/// pragma's line (`main_L42`), made unique by the namer.
fn kernel_name(file: &SourceFile, at: &Attached, namer: &mut dyn FreshName) -> String {
    let func = at.function.as_ref().map_or("file", |f| f.0.as_str());
    let line = file.origin(at.directive.span.start).1;
    namer.fresh(&format!("{func}_L{line}"))
}

/// A generic-mode region and, when its compute construct reduces (across
/// teams: seed 001's NULL outermost gang loop), its gang-level reduction.
/// Every generic region is built here, so none can lose its combine.
fn build_generic_region(
    cx: &Cx,
    at: &Attached,
    nested: &[&Attached],
    kernel: String,
    env: &DataEnv,
    diags: &mut Vec<Diagnostic>,
) -> Option<Region> {
    let a = cx.input;
    let budget = cx.settings.shared_budget;
    let mut r = generic::build_generic(a.file, a.tree, at, nested, kernel, budget, env, diags)?;
    r.red = crate::lower::reduction::build(&r, cx.settings.reduction_strategy);
    Some(r)
}

/// Each offloaded region's text, from its pragma to the end of its statement.
pub fn offloaded_spans(regions: &[Region]) -> Vec<Span> {
    regions
        .iter()
        .map(|r| Span::new(r.pragma.start, r.stmt.end.max(r.pragma.end)))
        .collect()
}

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

/// The C-to-C++ plan of the file around the lowered regions
/// (`lower::cxx::compat_edits`).
pub fn cxx_plan(
    a: &Input,
    module: &Module,
    namer: &mut dyn FreshName,
    diags: &mut Vec<Diagnostic>,
) -> CxxPlan {
    let mut plan = crate::lower::cxx::compat_edits(
        a.tree,
        &a.file.text,
        &offloaded_spans(&module.regions),
        &kernel_locals(&module.regions),
        namer,
        diags,
    );
    let variants = crate::lower::declare_variant::edits(
        a.file,
        a.tree,
        a.attached,
        &module.regions,
        &module.declare,
        diags,
    );
    if !variants.is_empty() {
        plan.edits.extend(variants);
        plan.edits.sort_by_key(|e| e.span.start);
    }
    plan
}
