//! Levels of an OpenACC `loop` with no level clause in a compute construct's
//! structured block.
//!
//! OpenACC 3.3 2.9 leaves the levels of a `loop` with no `gang`, `worker`,
//! `vector` or `seq` clause (in a `parallel` construct, `independent` is
//! implied) to the implementation. Alone, such a loop is spread over every
//! thread of every gang. When its body holds another `acc loop` that can take
//! the levels below gang (no `gang`, `seq` or `auto` of its own), the outer
//! loop takes `gang` and the inner one worker/vector: the usual choice of
//! OpenACC compilers, and the only one under which variables declared in the
//! gang-redundant code (one copy per gang) keep their meaning when the inner
//! loop updates them, e.g. with a reduction that the outer loop's body then
//! reads (`avg = 0; #pragma acc loop reduction(+:avg) ...; while (avg ...)`).
//! `lower/split.rs` makes the same choice for a combined `parallel loop`.

use crate::directives::{Directive, Model};
use crate::front::Attached;

/// The level clauses of an `acc loop`.
const LEVELS: [&str; 5] = ["gang", "worker", "vector", "seq", "auto"];

/// Whether `d`, an `acc loop` with no level clause whose statement is
/// `stmt`, takes the gang level because a loop nested in it takes the levels
/// below.
pub fn gang_by_nesting(
    d: &Directive,
    stmt: Option<crate::source::Span>,
    nested: &[&Attached],
) -> bool {
    if d.model != Model::Acc || d.name != "loop" || LEVELS.iter().any(|l| d.clause(l).is_some()) {
        return false;
    }
    let Some(stmt) = stmt else { return false };
    nested.iter().any(|n| {
        let nd = &n.directive;
        nd.model == Model::Acc
            && nd.name == "loop"
            && nd.span != d.span
            && stmt.start <= nd.span.start
            && nd.span.end <= stmt.end
            && ["gang", "seq", "auto"]
                .iter()
                .all(|l| nd.clause(l).is_none())
    })
}
