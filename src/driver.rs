//! Runs the pipeline stages in order. The only module that knows all stages.

use crate::diag::{codes, Diagnostic, Diagnostics};
use crate::directives::{self, Directive};
use crate::emit::{self, cxx, emit_file, namer::Namer};
use crate::front::{attach, parse_c, Attached, CTree};
use crate::lower::build::{self, build_region, Kind};
use crate::lower::data::{build_data, DataKind, DataOp};
use crate::lower::declare::{self, DeclarePlan};
use crate::lower::{plan, Region};
use crate::sema::sharing::DataEnv;
use crate::source::{mask, SourceFile, Span};

/// What to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Cuda,
    Directives,
    DirectivesJson,
    Plan,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub emit: Emit,
}

impl Default for Options {
    fn default() -> Self {
        Options { emit: Emit::Cuda }
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
    directives: Vec<Directive>,
    tree: CTree,
    attached: Vec<Attached>,
}

fn analyse(file: &SourceFile, diags: &mut Vec<Diagnostic>) -> Analysis {
    let raw = mask::find_pragmas(&file.text);
    let mut directives = Vec::new();
    for p in &raw {
        let (d, ds) = directives::parse_pragma(&file.text, p.span);
        diags.extend(ds);
        if let Some(d) = d {
            directives.push(d);
        }
    }
    let tree = parse_c(mask::mask(&file.text, &raw));
    let attached = attach(&tree, directives.clone());
    Analysis {
        directives,
        tree,
        attached,
    }
}

/// Everything lowering decided for one file.
pub(crate) struct Lowered {
    pub regions: Vec<Region>,
    pub data: Vec<DataOp>,
    pub declare: DeclarePlan,
    /// The file maps data outside structured constructs.
    pub unstructured: bool,
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

fn mentions_word(text: &str, word: &str) -> bool {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    text.match_indices(word).any(|(i, _)| {
        (i == 0 || !ident(b[i - 1])) && !b.get(i + word.len()).is_some_and(|c| ident(*c))
    })
}

/// The data environment a region at `at` sees: device variables, what the
/// data constructs around it map, whether the file maps data dynamically.
fn data_env(at: &Attached, data: &[DataOp], declare: &DeclarePlan, unstructured: bool) -> DataEnv {
    let pos = at.directive.span.start;
    let func = at.function.as_ref().map(|f| f.0.as_str()).unwrap_or("");
    let mut enclosing = std::collections::BTreeSet::new();
    for op in data {
        let covers = match (op.kind, op.stmt) {
            (DataKind::Region, Some(stmt)) => op.pragma.start < pos && pos < stmt.end,
            (DataKind::DeclareScope, _) => op.function == func && op.pragma.start < pos,
            _ => false,
        };
        if covers {
            enclosing.extend(op.mapped_names().map(str::to_string));
        }
    }
    DataEnv {
        declared: declare.vars.iter().map(|v| v.name.clone()).collect(),
        enclosing,
        unstructured,
    }
}

/// Lowers every offloaded region and data construct; reads the declarations
/// for the device; passes host-only OpenMP through; reports the rest.
/// Directives nested in a lowered region are not supported yet (data
/// constructs are not regions: what they cover is lowered as usual).
fn lower_all(
    file: &SourceFile,
    a: &Analysis,
    namer: &mut Namer,
    diags: &mut Vec<Diagnostic>,
) -> Lowered {
    let mut declare = declare::collect(file, &a.tree, &a.attached, diags);
    let unstructured = a.attached.iter().any(|at| {
        matches!(
            build::classify(&at.directive, at.function.is_some()),
            Kind::Data(DataKind::Enter | DataKind::Exit)
        )
    }) || DYNAMIC_MAPPING_CALLS
        .iter()
        .any(|c| mentions_word(&file.text, c));
    let mut regions = Vec::new();
    let mut data: Vec<DataOp> = Vec::new();
    let mut claimed: Vec<Span> = Vec::new();
    for at in &a.attached {
        let d = &at.directive;
        if let Some(outer) = claimed
            .iter()
            .find(|s| s.start <= d.span.start && d.span.end <= s.end)
        {
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
        match build::classify(d, at.function.is_some()) {
            Kind::HostPassthrough | Kind::Declare => {}
            Kind::NotSupported => diags.push(
                Diagnostic::new(codes::NOT_SUPPORTED, d.name_span, format!("`{} {}` is not supported yet", d.model.as_str(), d.name))
                    .with_label("not lowered yet")
                    .with_note("lowered so far: omp target teams distribute parallel for [simd], target parallel for [simd], target teams distribute, target data, target enter/exit data, target update, declare target; acc parallel loop, kernels loop, serial loop, data, enter/exit data, update, declare, routine"),
            ),
            Kind::Data(kind) => {
                if let Some(op) = build_data(file, &a.tree, at, kind, diags) {
                    data.push(op);
                }
            }
            Kind::Offload => {
                let func = at.function.as_ref().map(|f| f.0.clone()).unwrap_or_else(|| "file".into());
                let line = file.line_of(d.span.start);
                let kernel = namer.fresh(&format!("{func}_L{line}"));
                if let Some(stmt) = at.stmt {
                    claimed.push(Span::new(d.span.start, stmt.end));
                }
                let env = data_env(at, &data, &declare, unstructured);
                if let Some(r) = build_region(file, &a.tree, at, kernel, &env, diags) {
                    regions.push(r);
                }
            }
        }
    }
    let calls: Vec<(String, Span)> = regions.iter().flat_map(|r| r.calls.clone()).collect();
    declare::add_called(&mut declare, file, &a.tree, &calls, diags);
    Lowered {
        regions,
        data,
        declare,
        unstructured,
    }
}

/// Translates one file. Never panics; returns the output with all diagnostics.
pub fn translate(file: &SourceFile, opts: &Options) -> Translation {
    let mut diags: Vec<Diagnostic> = Vec::new();
    let a = analyse(file, &mut diags);
    let output = match opts.emit {
        Emit::Directives => Some(directives::render_text(file, &a.directives)),
        Emit::DirectivesJson => Some(directives::render_json(file, &a.directives)),
        Emit::Plan | Emit::Cuda => {
            let mut namer = Namer::new(&file.text);
            let low = lower_all(file, &a, &mut namer, &mut diags);
            if opts.emit == Emit::Plan {
                Some(plan::render(file, &low.regions, &low.data, &low.declare))
            } else {
                let edits = cxx::compat_edits(&a.tree, &file.text, &mut namer, &mut diags);
                Some(emit_file(
                    file,
                    &low.regions,
                    &low.data,
                    &low.declare,
                    edits,
                    &mut namer,
                ))
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

/// Lowers the region whose pragma or statement contains `offset`, by itself.
pub fn lower_region_at(file: &SourceFile, offset: usize) -> (Option<RegionView>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let a = analyse(file, &mut diags);
    let Some(at) = a.attached.iter().find(|at| {
        let end = at.stmt.map(|s| s.end).unwrap_or(at.directive.span.end);
        at.directive.span.start <= offset
            && offset < end
            && matches!(
                build::classify(&at.directive, at.function.is_some()),
                Kind::Offload
            )
    }) else {
        return (None, diags);
    };
    // The data environment comes from the whole file; its diagnostics are
    // not this region's.
    let low = lower_all(file, &a, &mut Namer::new(&file.text), &mut Vec::new());
    let env = data_env(at, &low.data, &low.declare, low.unstructured);
    let mut namer = Namer::new(&file.text);
    let func = at
        .function
        .as_ref()
        .map(|f| f.0.clone())
        .unwrap_or_else(|| "file".into());
    let kernel = namer.fresh(&format!(
        "{func}_L{}",
        file.line_of(at.directive.span.start)
    ));
    let region = build_region(file, &a.tree, at, kernel, &env, &mut diags);
    let view = region.map(|r| {
        let plan_text = plan::render(file, std::slice::from_ref(&r), &[], &DeclarePlan::default());
        let t = emit::region::emit_region(
            &r,
            file.slice(r.body),
            file.slice(r.stmt),
            &file.name,
            &mut namer,
        );
        RegionView {
            pragma: r.pragma,
            plan: plan_text,
            cuda: format!("{}{}\n", t.kernel, t.host),
        }
    });
    let mut sink = Diagnostics::new();
    sink.extend(diags);
    (view, sink.into_sorted())
}
