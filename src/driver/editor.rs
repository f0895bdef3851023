//! The editor's session (issue 15): a file analysed, lowered and rendered
//! once, then any number of region look-ups, each a binary search and a
//! copy of text already made. [`super::lower_region_at`] answers the same
//! for one look-up, doing the whole work each time.
//!
//! The view of a region is the text the whole translation writes for it,
//! and its names depend on every region before it (one namer serves the
//! file), so the session renders every region once, in order, as the
//! translation does. An edit analyses the file again (names may move in
//! any region after the edit).
//!
//! The language server (`crate::lsp`) reads a session through
//! [`EditorSession::regions`] and [`EditorSession::details`]: the summary
//! of every region (lens), and one region's plan, sharing and reduction
//! views (hover), rendered when asked.

use super::renames::Renames;
use super::{analyse, lower_all, scope_cache, Analysis, Options, RegionView};
use crate::diag::{Diagnostic, Diagnostics};
use crate::emit::{self, namer::Namer};
use crate::ir::declare::DeclarePlan;
use crate::ir::{Module, Region};
use crate::lower::build::{self, Kind};
use crate::lower::file::{cxx_plan, offloaded_spans};
use crate::lower::{generic, plan, sharing_report};
use crate::source::{SourceFile, Span};

/// One rendered region.
struct Rendered {
    view: RegionView,
    /// Its lost-directive diagnostics.
    lost: Vec<Diagnostic>,
    /// The lowered region (in the renamed text), for [`EditorSession::details`].
    region: Region,
    summary: RegionSummary,
}

/// What an editor shows above a region (a code lens): cheap, made once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionSummary {
    /// The pragma, in the user's text.
    pub pragma: Span,
    /// The pragma to the end of its statement, in the user's text.
    pub whole: Span,
    pub kernel: String,
    /// `omp target teams distribute parallel for`.
    pub directive: String,
    /// The schedule's short name: `grid-stride`, `block-stride`, `block-only`, `sequential`.
    pub schedule: String,
    /// Scalar and array reductions.
    pub reductions: usize,
    /// Generic mode (a sequential part and nested parallel regions).
    pub generic: bool,
    /// Bytes of the team frame staged in shared memory (generic mode).
    pub shared_bytes: u64,
}

/// The views of one region an editor shows on hover, rendered when asked.
#[derive(Clone, Debug)]
pub struct RegionDetails {
    pub summary: RegionSummary,
    /// `--emit=plan` of the region: launch shape, schedule, variables.
    pub plan: String,
    /// `--emit=sharing` of the region: where each variable lives and why.
    pub sharing: String,
    /// The strategy its reductions use (`--reduction-strategy`).
    pub strategy: &'static str,
    /// The region's kernel and host code.
    pub cuda: String,
}

/// A file kept analysed and lowered for an editor.
pub struct EditorSession {
    file: SourceFile,
    analysis: Analysis,
    /// The analysis' diagnostics (every look-up reports them).
    front: Vec<Diagnostic>,
    /// Lowering's diagnostics, each located somewhere in the file.
    lowering: Vec<Diagnostic>,
    /// Every lowered region, in the order the translation renders them.
    regions: Vec<Rendered>,
    /// Keyword renames: the analysis is of the renamed text.
    renames: Renames,
    /// The renamed text, when there are renames.
    renamed: Option<SourceFile>,
    /// The options the regions were lowered with.
    opts: Options,
}

impl EditorSession {
    /// Parses, lowers and renders `file` (about the cost of translating it).
    /// Runs on a thread with a stack for the nesting limits (`big_stack`).
    pub fn new(file: SourceFile) -> Self {
        Self::with_options(file, &Options::default())
    }

    /// [`Self::new`] lowering with `opts` (reduction strategy, shared
    /// budget; `opts.emit` is not read).
    pub fn with_options(file: SourceFile, opts: &Options) -> Self {
        let opts = opts.clone();
        crate::big_stack::run(move || Self::build(file, opts))
    }

    /// As `translate`: the file is lowered with the session's options and,
    /// only when that lowering renames C++ keywords used as names, the
    /// renamed text is analysed and lowered again. A file without renames
    /// (most) is lowered once, and that lowering is the one rendered.
    fn build(file: SourceFile, opts: Options) -> Self {
        let mut front = Vec::new();
        let analysis = analyse(&file, &mut front);
        let mut session = EditorSession {
            file,
            analysis,
            front,
            lowering: Vec::new(),
            regions: Vec::new(),
            renames: Renames(Vec::new()),
            renamed: None,
            opts,
        };
        if session.analysis.too_deep {
            return session;
        }
        let first = lower_once(&session.file, &session.analysis, &session.opts);
        let offloaded = offloaded_spans(&first.module.regions);
        let renames = Renames::from_lowered(&session.file, &session.analysis, &offloaded);
        if renames.is_empty() {
            let (lowering, regions) = render_lowered(&session.file, &session.analysis, first);
            session.lowering = lowering;
            session.regions = regions;
            return session;
        }
        drop(first);
        let renamed = renames.apply(&session.file);
        let mut front = Vec::new();
        session.analysis = analyse(&renamed, &mut front);
        session.front = front;
        if !session.analysis.too_deep {
            let low = lower_once(&renamed, &session.analysis, &session.opts);
            let (lowering, mut regions) = render_lowered(&renamed, &session.analysis, low);
            for r in &mut regions {
                r.summary.pragma = renames.back_span(r.summary.pragma);
                r.summary.whole = renames.back_span(r.summary.whole);
            }
            session.lowering = lowering;
            session.regions = regions;
        }
        session.renames = renames;
        session.renamed = Some(renamed);
        session
    }

    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Every diagnostic of the file (analysis, lowering and lost
    /// directives), sorted, on the user's text.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut all = self.front.clone();
        all.extend(self.lowering.iter().cloned());
        // As `translate`: a directive rejected by an error is not lowered
        // on purpose, so lost directives speak only for an error-free file.
        if !all.iter().any(Diagnostic::is_error) {
            all.extend(self.regions.iter().flat_map(|r| r.lost.iter().cloned()));
        }
        let mut all = sorted(all);
        self.renames.back_diagnostics(&mut all);
        all
    }

    /// The summary of every lowered region, in text order of rendering.
    pub fn regions(&self) -> impl Iterator<Item = &RegionSummary> {
        self.regions.iter().map(|r| &r.summary)
    }

    /// The views of the region whose pragma or statement holds `offset`.
    pub fn details(&self, offset: usize) -> Option<RegionDetails> {
        let r = self.region_index(self.renames.forward(offset))?;
        let r = &self.regions[r];
        let file = self.renamed.as_ref().unwrap_or(&self.file);
        let one = std::slice::from_ref(&r.region);
        Some(RegionDetails {
            summary: r.summary.clone(),
            plan: r.view.plan.clone(),
            sharing: sharing_report::render_text(file, Some(&self.analysis.tree), one),
            strategy: self.opts.reduction_strategy.as_str(),
            cuda: r.view.cuda.clone(),
        })
    }

    /// The whole translation of the file with the session's options
    /// (the work of [`super::translate`]).
    pub fn translation(&self) -> super::Translation {
        let opts = Options {
            emit: super::Emit::Cuda,
            ..self.opts.clone()
        };
        super::translate(&self.file, &opts)
    }

    pub fn file(&self) -> &SourceFile {
        &self.file
    }

    /// Replaces bytes `start..end` of the text with `new_text` and analyses
    /// the file again. Out-of-range or non-boundary offsets are clamped to
    /// the text.
    pub fn edit(&mut self, start: usize, end: usize, new_text: &str) {
        let t = &self.file.text;
        let clamp = |mut i: usize| {
            i = i.min(t.len());
            while !t.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let (s, e) = (clamp(start), clamp(end.max(start)));
        let mut text = String::with_capacity(t.len() + new_text.len());
        text.push_str(&t[..s]);
        text.push_str(new_text);
        text.push_str(&t[e..]);
        let name = self.file.name.clone();
        *self = EditorSession::with_options(SourceFile::new(name, text), &self.opts);
    }

    /// The index in `regions` of the region of the target at `offset`
    /// (both in the renamed text).
    fn region_index(&self, offset: usize) -> Option<usize> {
        let whole = target(&self.analysis, offset)?;
        let in_whole = |p: usize| whole.start <= p && p < whole.end.max(whole.start + 1);
        self.regions
            .iter()
            .position(|r| in_whole(r.view.pragma.start))
    }

    /// What [`super::lower_region_at`] answers for `offset`, from the
    /// session's rendering.
    pub fn region_at(&self, offset: usize) -> (Option<RegionView>, Vec<Diagnostic>) {
        let (mut view, mut diags) = self.renamed_region_at(self.renames.forward(offset));
        if let Some(v) = &mut view {
            v.pragma = self.renames.back_span(v.pragma);
        }
        self.renames.back_diagnostics(&mut diags);
        (view, diags)
    }

    /// [`Self::region_at`] with `offset` and the answer in the renamed text.
    fn renamed_region_at(&self, offset: usize) -> (Option<RegionView>, Vec<Diagnostic>) {
        let a = &self.analysis;
        let mut diags = self.front.clone();
        let Some(whole) = target(a, offset) else {
            return (None, sorted(diags));
        };
        let in_whole = |p: usize| whole.start <= p && p < whole.end.max(whole.start + 1);
        diags.extend(
            self.lowering
                .iter()
                .filter(|d| in_whole(d.primary_span().start))
                .cloned(),
        );
        // The first rendered region whose pragma is in the target's span.
        let view = self.region_index(offset).map(|i| {
            let r = &self.regions[i];
            diags.extend(r.lost.iter().cloned());
            r.view.clone()
        });
        (view, sorted(diags))
    }
}

fn sorted(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut sink = Diagnostics::new();
    sink.extend(diags);
    sink.into_sorted()
}

/// The span (pragma to the end of its statement) of the first lowered
/// directive whose span holds `offset`.
pub(super) fn target(a: &Analysis, offset: usize) -> Option<Span> {
    let at = a.attached.iter().enumerate().find_map(|(i, at)| {
        let end = at.stmt.map(|s| s.end).unwrap_or(at.directive.span.end);
        (at.directive.span.start <= offset
            && offset < end
            && !a.rejected.get(i).copied().unwrap_or(false)
            && (matches!(
                build::classify(&at.directive, at.function.is_some()),
                Kind::Offload
            ) || generic::handles(&at.directive)))
        .then_some(at)
    })?;
    Some(Span::new(
        at.directive.span.start,
        at.stmt.map_or(at.directive.span.end, |s| s.end),
    ))
}

/// A file lowered with one namer, before rendering: the namer goes on to
/// name what rendering adds, as in the translation.
struct Lowered {
    module: Module,
    namer: Namer,
    diags: Vec<Diagnostic>,
}

/// Lowers the analysed file with `opts` (the first half of the translation).
fn lower_once(file: &SourceFile, a: &Analysis, opts: &Options) -> Lowered {
    let _scopes = scope_cache(file, a);
    let mut namer = Namer::new(&file.text);
    let mut diags = Vec::new();
    let module = lower_all(file, a, opts, &mut namer, &mut diags);
    Lowered {
        module,
        namer,
        diags,
    }
}

/// Makes the C++ edits of the lowered file and renders every region in
/// order, with the lowering's namer, as the translation does.
fn render_lowered(
    file: &SourceFile,
    a: &Analysis,
    low: Lowered,
) -> (Vec<Diagnostic>, Vec<Rendered>) {
    let _scopes = scope_cache(file, a);
    let Lowered {
        module: low,
        mut namer,
        mut diags,
    } = low;
    let mut edits = cxx_plan(&a.input(file), &low, &mut namer, &mut diags).edits;
    edits.sort_by_key(|e| e.span.start);
    let mut out: Vec<Rendered> = Vec::with_capacity(low.regions.len());
    for r in low.regions {
        let t = emit::render_region(&r, file, &low.declare, &edits, &mut namer, false);
        let lost = emit::guard::lost_directives(file, r.pragma, r.stmt, &t.kernel, &t.host);
        out.push(Rendered {
            view: RegionView {
                pragma: r.pragma,
                plan: plan::render(file, std::slice::from_ref(&r), &[], &DeclarePlan::default()),
                cuda: format!("{}{}\n", t.kernel, t.host),
            },
            lost,
            summary: summary(&r),
            region: r,
        });
    }
    (diags, out)
}

fn summary(r: &Region) -> RegionSummary {
    let schedule = r.schedule.as_str();
    RegionSummary {
        pragma: r.pragma,
        whole: Span::new(r.pragma.start, r.stmt.end.max(r.pragma.end)),
        kernel: r.kernel.clone(),
        directive: format!("{} {}", r.model.as_str(), r.construct),
        schedule: schedule.split(' ').next().unwrap_or(schedule).to_string(),
        reductions: r.reductions.len() + r.array_reductions.len(),
        generic: r.generic.is_some(),
        shared_bytes: r.generic.as_ref().map_or(0, |g| g.shared_bytes),
    }
}
