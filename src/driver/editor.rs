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

use super::renames::{analyse_renamed, Renames};
use super::{lower_all, offloaded_spans, scope_cache, Analysis, Options, RegionView};
use crate::diag::{Diagnostic, Diagnostics};
use crate::emit::{self, cxx, namer::Namer};
use crate::ir::declare::DeclarePlan;
use crate::lower::build::{self, Kind};
use crate::lower::{generic, plan};
use crate::source::{SourceFile, Span};

/// One rendered region.
struct Rendered {
    view: RegionView,
    /// Its lost-directive diagnostics.
    lost: Vec<Diagnostic>,
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
}

impl EditorSession {
    /// Parses, lowers and renders `file` (about the cost of translating it).
    /// Runs on a thread with a stack for the nesting limits (`big_stack`).
    pub fn new(file: SourceFile) -> Self {
        crate::big_stack::run(move || Self::build(file))
    }

    fn build(file: SourceFile) -> Self {
        let mut front = Vec::new();
        let (renamed, analysis, renames) = analyse_renamed(&file, &mut front);
        let (lowering, regions) = if analysis.too_deep {
            (Vec::new(), Vec::new())
        } else {
            render_all(renamed.as_ref().unwrap_or(&file), &analysis)
        };
        EditorSession {
            file,
            analysis,
            front,
            lowering,
            regions,
            renames,
        }
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
        *self = EditorSession::new(SourceFile::new(name, text));
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
        let view = self.regions.iter().find(|r| in_whole(r.view.pragma.start));
        let view = view.map(|r| {
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

/// Lowers the file and renders every region in order, with one namer, as
/// the translation does.
fn render_all(file: &SourceFile, a: &Analysis) -> (Vec<Diagnostic>, Vec<Rendered>) {
    let _scopes = scope_cache(file, a);
    let mut namer = Namer::new(&file.text);
    let mut diags = Vec::new();
    let low = lower_all(file, a, &Options::default(), &mut namer, &mut diags);
    let offloaded = offloaded_spans(&low.regions);
    let mut edits = cxx::compat_edits(
        &a.tree,
        &file.text,
        &offloaded,
        &super::kernel_locals(&low.regions),
        &mut namer,
        &mut diags,
    );
    edits.sort_by_key(|e| e.span.start);
    let mut out: Vec<Rendered> = Vec::with_capacity(low.regions.len());
    for r in &low.regions {
        let t = emit::render_region(r, file, &low.declare, &edits, &mut namer);
        let lost = emit::guard::lost_directives(file, r.pragma, r.stmt, &t.kernel, &t.host);
        out.push(Rendered {
            view: RegionView {
                pragma: r.pragma,
                plan: plan::render(file, std::slice::from_ref(r), &[], &DeclarePlan::default()),
                cuda: format!("{}{}\n", t.kernel, t.host),
            },
            lost,
        });
    }
    (diags, out)
}
