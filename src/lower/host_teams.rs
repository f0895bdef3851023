//! Host `teams` (OpenMP 5.0, 10.2): a `teams` construct outside every
//! `target` region creates its league on the host, so it is host OpenMP and
//! passes through to the host runtime, with the `distribute` constructs
//! closely nested in it. Each such pragma is kept as written, with a comment
//! at its end ([`HOST_TEAMS_MARK`]) that says why it is still there: the
//! verifier's leftover-pragma check (`tools::leftover`) accepts a
//! `teams` / `distribute` pragma that carries it, and no other.
//!
//! Not taken for host teams: a pragma spelled through a macro (its text is
//! in the `#define`; still refused), a directive outside a function, a
//! `distribute` that is not inside a host `teams` statement (an orphaned
//! `distribute` binds to a league this file cannot see), and anything with
//! a `target` leaf.

use crate::directives::{Directive, Model};
use crate::source::{SourceFile, Span};

/// The comment that ends every host `teams` / `distribute` pragma of the
/// output.
pub const HOST_TEAMS_MARK: &str =
    "/* pragma2cuda: host teams (no target region): run by the host OpenMP runtime */";

/// The leaves of a host-teams construct: `teams ...` (not `target`).
fn is_teams(d: &Directive) -> bool {
    d.model == Model::Omp && d.words().next() == Some("teams") && !has_target(d)
}

/// `distribute ...` without `target` or `teams` leaves.
fn is_distribute(d: &Directive) -> bool {
    d.model == Model::Omp && d.words().next() == Some("distribute") && !has_target(d)
}

fn has_target(d: &Directive) -> bool {
    d.words().any(|w| w == "target")
}

/// The host teams statements found so far, and the pragmas to mark.
#[derive(Default)]
pub struct HostTeams {
    /// Pragma start .. statement end of each host `teams` construct.
    spans: Vec<Span>,
}

impl HostTeams {
    /// Whether `d` (not nested in an offloaded region, in a function when
    /// `in_function`, governing `stmt`) is host teams or a `distribute`
    /// closely nested in one; if so, the rewrite that marks its pragma.
    pub fn take(
        &mut self,
        file: &SourceFile,
        d: &Directive,
        in_function: bool,
        stmt: Option<Span>,
    ) -> Option<(Span, String)> {
        let text = file.text.get(d.span.start..d.span.end)?;
        if !in_function || !text.starts_with('#') {
            return None;
        }
        let inside = self
            .spans
            .iter()
            .any(|s| s.start < d.span.start && d.span.end <= s.end);
        if is_teams(d) && !inside {
            let stmt = stmt?;
            self.spans.push(Span::new(d.span.start, stmt.end));
        } else if !(is_distribute(d) && inside) {
            return None;
        }
        let body = text.trim_end();
        Some((
            Span::new(d.span.start, d.span.start + body.len()),
            format!("{body} {HOST_TEAMS_MARK}"),
        ))
    }
}
