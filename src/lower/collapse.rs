//! Non-rectangular collapsed loop nests (`collapse(n)` where an inner
//! loop's bounds or step name an outer loop's variable).
//!
//! OpenMP 5.2 (4.4.1) lets such a nest be collapsed; collapsing only
//! changes how iterations are spread over threads, never what each
//! iteration does. The lowering collapses the rectangular outer prefix
//! (the loops before the first one that depends on an outer variable) and
//! runs the remaining loops in order inside each collapsed iteration, in
//! the thread that runs it, as the original code does. Why not count the
//! iterations exactly: the exact count of a triangular nest needs the
//! inverse of a polynomial per level (or a search) to map a flat index
//! back to the variables, in every iteration, for every form of bound and
//! step; the prefix split is exact for any dependence, costs nothing per
//! iteration, and leaves the inner loops as the user wrote them. The
//! parallelism lost is that of the inner loops, and the prefix is never
//! empty (the outermost loop cannot depend on another).
//!
//! The variables of the in-order loops stay predetermined private (the
//! caller keeps them among the loop variables), so `lastprivate` of one
//! is the value it has after the sequentially last collapsed iteration,
//! which runs the inner loops to their end: the sequential value.

use crate::diag::{codes, Diagnostic};
use crate::directives::Directive;
use crate::sema::loops::CanonLoop;
use crate::source::mask::mentions_word as mentions;

/// OpenACC `collapse(force: n)` (loops not perfectly nested, the code
/// between them run once per outer iteration): not lowered yet, a located
/// E0901 on the modifier. True when refused.
pub fn refuse_force(d: &Directive, diags: &mut Vec<Diagnostic>) -> bool {
    let Some(c) = d.clause("collapse") else {
        return false;
    };
    let Some(m) = c.expr_modifier().filter(|m| m.text == "force") else {
        return false;
    };
    diags.push(
        Diagnostic::new(
            codes::NOT_SUPPORTED,
            m.span,
            "`collapse(force: n)` (collapsing loops that are not perfectly nested) is not supported yet",
        )
        .with_label("not lowered yet")
        .with_secondary(c.span, "collapse clause")
        .with_help("move the code between the loops into the innermost loop, or collapse fewer loops"),
    );
    true
}

/// The number of loops of `nest` that collapse: those before the first
/// loop whose bounds or step name an outer loop's variable (all of them
/// for a rectangular nest; at least 1).
pub fn rectangular_prefix(nest: &[CanonLoop]) -> usize {
    for (i, inner) in nest.iter().enumerate().skip(1) {
        for outer in &nest[..i] {
            let m = |e: &str| mentions(e, &outer.var);
            if m(&inner.lb) || m(&inner.ub) || m(&inner.step) {
                return i;
            }
        }
    }
    nest.len().max(1)
}

/// The plan's note for a nest cut to `kept` of its `depth` loops.
pub fn note(nest: &[CanonLoop], kept: usize) -> String {
    let dep = &nest[kept];
    let inner: Vec<&str> = nest[kept..].iter().map(|l| l.var.as_str()).collect();
    format!(
        "collapse({}): the bounds of loop `{}` depend on an outer loop variable; the rectangular loops before it are collapsed and the loops over {} run in order in each thread (lower/collapse.rs)",
        nest.len(),
        dep.var,
        inner
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn lp(var: &str, lb: &str, ub: &str) -> CanonLoop {
        CanonLoop {
            var: var.into(),
            var_span: Span::new(0, 0),
            declared_type: None,
            lb: lb.into(),
            ub: ub.into(),
            test: crate::sema::loops::TestOp::Lt,
            written_test: "<".into(),
            step: "1".into(),
            literal_step: true,
            span: Span::new(0, 0),
            body: Span::new(0, 0),
        }
    }

    #[test]
    fn prefix_stops_at_the_first_dependent_loop() {
        let n = vec![
            lp("i", "0", "N"),
            lp("j", "0", "M"),
            lp("k", "i", "N"),
            lp("l", "0", "M"),
        ];
        assert_eq!(rectangular_prefix(&n), 2);
        assert_eq!(rectangular_prefix(&n[..2]), 2);
        let t = vec![lp("i", "0", "N"), lp("j", "0", "i + 1")];
        assert_eq!(rectangular_prefix(&t), 1);
        let w = vec![lp("i", "0", "N"), lp("j", "0", "ii")];
        assert_eq!(rectangular_prefix(&w), 2);
    }
}
