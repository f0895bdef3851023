//! Runs the pipeline stages in order. The only module that knows all stages.

use crate::diag::{codes, Diagnostic, Diagnostics};
use crate::directives::{self, Directive};
use crate::emit::{self, emit_file, namer::Namer};
use crate::front::{attach, parse_c, Attached, CTree};
use crate::ir::declare::DeclarePlan;
use crate::ir::reduction::Strategy;
use crate::ir::Module;
use crate::lower::{self, generic, plan};
use crate::report;
use crate::source::{macros, mask, SourceFile, Span};
use crate::valid;

mod editor;
mod renames;
pub use editor::{EditorSession, RegionDetails, RegionSummary};
use std::collections::HashMap;

pub use crate::report::Emit;

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

impl Analysis {
    /// What lowering reads of the analysis.
    fn input<'a>(&'a self, file: &'a SourceFile) -> lower::file::Input<'a> {
        lower::file::Input {
            file,
            tree: &self.tree,
            attached: &self.attached,
            rejected: &self.rejected,
            resolved: &self.resolved,
        }
    }
}

/// Lowers the analysed file (`lower::file`) with the options' settings.
fn lower_all(
    file: &SourceFile,
    a: &Analysis,
    opts: &Options,
    namer: &mut Namer,
    diags: &mut Vec<Diagnostic>,
) -> Module {
    let settings = lower::file::Settings {
        reduction_strategy: opts.reduction_strategy,
        shared_budget: opts.shared_budget,
    };
    lower::file::lower_file(&a.input(file), settings, namer, diags)
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
                if rename {
                    let offloaded = lower::file::offloaded_spans(&low.regions);
                    let renames = renames::Renames::from_lowered(file, &a, &offloaded);
                    if !renames.is_empty() {
                        return translate_renamed(file, opts, &renames);
                    }
                }
                let cxx_plan = lower::file::cxx_plan(&a.input(file), &low, &mut namer, &mut diags);
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
    let mut edits = lower::file::cxx_plan(&a.input(file), &low, &mut namer, &mut elsewhere).edits;
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
