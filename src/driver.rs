//! Runs the pipeline stages in order. The only module that knows all stages.

use crate::diag::{codes, Diagnostic, Diagnostics};
use crate::directives::{self, Directive};
use crate::emit::{self, cxx, emit_file, namer::Namer};
use crate::front::{attach, parse_c, Attached, CTree};
use crate::lower::build::{self, build_region, Kind};
use crate::lower::generic;
use crate::lower::{plan, sharing_report, Region};
use crate::source::{mask, SourceFile, Span};

/// What to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Cuda,
    Directives,
    DirectivesJson,
    Plan,
    /// Data-sharing attributes, homes and rules of every variable (`--emit=sharing`).
    Sharing,
    SharingJson,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub emit: Emit,
    /// Bytes of shared memory a team's staged variables may take in generic
    /// mode (`--shared-budget`); the rest go to a per-team global frame.
    pub shared_budget: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            emit: Emit::Cuda,
            shared_budget: generic::DEFAULT_SHARED_BUDGET,
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

/// Lowers every offloaded region; passes host-only OpenMP through; reports
/// the rest. Directives nested in a lowered region are not supported yet.
fn lower_all(
    file: &SourceFile,
    a: &Analysis,
    opts: &Options,
    namer: &mut Namer,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Region> {
    let mut regions: Vec<Region> = Vec::new();
    let mut claimed: Vec<Span> = Vec::new();
    let threadprivate = crate::sema::threadprivate::names(&a.directives);
    // Generic-mode regions lower the directives nested in them.
    let mut generic_claimed: Vec<Span> = Vec::new();
    for at in &a.attached {
        let d = &at.directive;
        if generic_claimed
            .iter()
            .any(|s| s.start <= d.span.start && d.span.end <= s.end)
        {
            continue;
        }
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
        if generic::handles(d) {
            let func = at
                .function
                .as_ref()
                .map(|f| f.0.clone())
                .unwrap_or_else(|| "file".into());
            let line = file.line_of(d.span.start);
            let kernel = namer.fresh(&format!("{func}_L{line}"));
            let whole = Span::new(d.span.start, at.stmt.map(|s| s.end).unwrap_or(d.span.end));
            generic_claimed.push(whole);
            let nested: Vec<&Attached> = a
                .attached
                .iter()
                .filter(|n| {
                    n.directive.span != d.span
                        && whole.start <= n.directive.span.start
                        && n.directive.span.end <= whole.end
                })
                .collect();
            let built = match generic::spmd_merge(at, &nested) {
                Some(m) => build_region(file, &a.tree, &m, kernel, diags),
                None => generic::build_generic(
                    file,
                    &a.tree,
                    at,
                    &nested,
                    kernel,
                    opts.shared_budget,
                    diags,
                ),
            };
            if let Some(r) = built {
                crate::sema::threadprivate::check(&r.vars, r.pragma, &threadprivate, diags);
                regions.push(r);
            }
            continue;
        }
        match build::classify(d) {
            Kind::HostPassthrough => {}
            Kind::NotSupported => diags.push(
                Diagnostic::new(codes::NOT_SUPPORTED, d.name_span, format!("`{} {}` is not supported yet", d.model.as_str(), d.name))
                    .with_label("not lowered yet")
                    .with_note("lowered so far: omp target teams distribute parallel for [simd], target parallel for [simd], target teams distribute; acc parallel loop, kernels loop, serial loop"),
            ),
            Kind::Offload => {
                let func = at.function.as_ref().map(|f| f.0.clone()).unwrap_or_else(|| "file".into());
                let line = file.line_of(d.span.start);
                let kernel = namer.fresh(&format!("{func}_L{line}"));
                if let Some(stmt) = at.stmt {
                    claimed.push(Span::new(d.span.start, stmt.end));
                }
                if let Some(r) = build_region(file, &a.tree, at, kernel, diags) {
                    crate::sema::threadprivate::check(&r.vars, r.pragma, &threadprivate, diags);
                    regions.push(r);
                }
            }
        }
    }
    regions
}

/// Translates one file. Never panics; returns the output with all diagnostics.
pub fn translate(file: &SourceFile, opts: &Options) -> Translation {
    let mut diags: Vec<Diagnostic> = Vec::new();
    let a = analyse(file, &mut diags);
    let output = match opts.emit {
        Emit::Directives => Some(directives::render_text(file, &a.directives)),
        Emit::DirectivesJson => Some(directives::render_json(file, &a.directives)),
        Emit::Plan | Emit::Cuda | Emit::Sharing | Emit::SharingJson => {
            let mut namer = Namer::new(&file.text);
            let regions = lower_all(file, &a, opts, &mut namer, &mut diags);
            if opts.emit == Emit::Plan {
                Some(plan::render(file, &regions))
            } else if opts.emit == Emit::Sharing {
                Some(sharing_report::render_text(file, Some(&a.tree), &regions))
            } else if opts.emit == Emit::SharingJson {
                Some(sharing_report::render_json(file, Some(&a.tree), &regions))
            } else {
                let edits = cxx::compat_edits(&a.tree, &file.text, &mut namer, &mut diags);
                Some(emit_file(file, &regions, edits, &mut namer))
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
            && (matches!(build::classify(&at.directive), Kind::Offload)
                || generic::handles(&at.directive))
    }) else {
        return (None, diags);
    };
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
    let region = if generic::handles(&at.directive) {
        let whole = Span::new(
            at.directive.span.start,
            at.stmt.map(|s| s.end).unwrap_or(at.directive.span.end),
        );
        let nested: Vec<&Attached> = a
            .attached
            .iter()
            .filter(|n| {
                n.directive.span != at.directive.span
                    && whole.start <= n.directive.span.start
                    && n.directive.span.end <= whole.end
            })
            .collect();
        match generic::spmd_merge(at, &nested) {
            Some(m) => build_region(file, &a.tree, &m, kernel, &mut diags),
            None => generic::build_generic(
                file,
                &a.tree,
                at,
                &nested,
                kernel,
                generic::DEFAULT_SHARED_BUDGET,
                &mut diags,
            ),
        }
    } else {
        build_region(file, &a.tree, at, kernel, &mut diags)
    };
    let view = region.map(|r| {
        let plan_text = plan::render(file, std::slice::from_ref(&r));
        let t = match &r.generic {
            Some(g) => emit::generic::emit_generic(&r, g, file, &[], &mut namer),
            None => emit::region::emit_region(
                &r,
                file.slice(r.body),
                file.slice(r.stmt),
                &file.name,
                &mut namer,
            ),
        };
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
