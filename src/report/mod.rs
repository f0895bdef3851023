//! The outputs that are not CUDA (`--emit=directives`, `directives-json`,
//! `plan`, `plan-json`, `reductions`, `sharing`, `sharing-json`), chosen in
//! one place.
//! Each view's builder stays beside the stage whose decisions it shows
//! (`directives::render`, `lower::plan`, `lower::reduction::render`,
//! `lower::sharing_report`); this module only picks and calls it.

mod plan_json;

use crate::directives::{self, Directive};
use crate::front::CTree;
use crate::ir::data::DataOp;
use crate::ir::declare::DeclarePlan;
use crate::ir::Region;
use crate::lower::{plan, reduction, sharing_report};
use crate::source::SourceFile;

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

/// What lowering decided for a file, as the reports read it.
pub struct Lowered<'a> {
    pub regions: &'a [Region],
    pub data: &'a [DataOp],
    pub declare: &'a DeclarePlan,
}

/// Whether `emit` is a view of the parsed pragmas (no lowering needed).
pub fn of_directives(emit: Emit) -> bool {
    matches!(emit, Emit::Directives | Emit::DirectivesJson)
}

/// The view of the parsed pragmas (`directives`, `directives-json`); None
/// for another `emit`.
pub fn directives<'a>(
    file: &SourceFile,
    emit: Emit,
    dirs: impl IntoIterator<Item = &'a Directive>,
) -> Option<String> {
    match emit {
        Emit::Directives => Some(directives::render_text(file, dirs)),
        Emit::DirectivesJson => Some(directives::render_json(file, dirs)),
        _ => None,
    }
}

/// The view of what lowering decided (`plan`, `reductions`, `sharing`,
/// `sharing-json`); None for CUDA and the directive views.
pub fn lowered(file: &SourceFile, emit: Emit, tree: &CTree, low: &Lowered) -> Option<String> {
    match emit {
        Emit::Plan => Some(plan::render(file, low.regions, low.data, low.declare)),
        Emit::PlanJson => Some(plan_json::render(file, tree, low.regions)),
        Emit::Reductions => Some(reduction::render::render(file, low.regions)),
        Emit::Sharing => Some(sharing_report::render_text(file, Some(tree), low.regions)),
        Emit::SharingJson => Some(sharing_report::render_json(file, Some(tree), low.regions)),
        Emit::Cuda | Emit::Directives | Emit::DirectivesJson => None,
    }
}
