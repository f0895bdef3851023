//! OpenMP `linear` on an SPMD worksharing loop (`target parallel for`,
//! `target teams distribute parallel for`, their `simd` and `loop` forms).
//!
//! OpenMP 5.2 5.4.6: each iteration's private copy starts as the original
//! value plus the iteration's logical number times the step, and the value
//! the copy has at the end of the sequentially last iteration is assigned
//! to the original. Lowered as a lastprivate scalar (the thread that ran
//! the last iteration stores its copy) whose copy is set at the start of
//! every iteration from the original's value and the step, both read on
//! the host before the launch (the original from its device copy, so no
//! thread reads it while the last one writes it).
//!
//! Lowered: integer scalars named by the loop, `linear(x)`, `linear(x: s)`
//! and `linear(x: step(s))`. A loop variable of the nest is its own linear
//! variable: a lastprivate one. Refused (E0901, located): modifiers (`val`,
//! `ref`, `uval`), pointers, non-integer or array items, members and
//! sections, and an item the loop does not name.

use crate::diag::{codes, Diagnostic};
use crate::directives::Directive;
use crate::ir::region::Linear;
use crate::sema::sharing::{Attr, VarAttr};
use crate::sema::symbols::Scope;

/// The rule a linear variable's attribute is reported with.
pub const RULE: &str = "explicit clause linear";

/// Rewrites the variables of `d`'s `linear` clauses into lastprivate
/// scalars and returns the per-iteration starts; `None` after an E0901.
pub fn apply(
    d: &Directive,
    vars: &mut [VarAttr],
    loop_vars: &[String],
    symbols: &Scope,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Linear>> {
    let errors = diags.len();
    let mut linear = Vec::new();
    for c in d.clauses_named("linear") {
        let step = match step_of(c) {
            Ok(s) => s,
            Err(why) => {
                diags.push(refusal(c.span, why));
                continue;
            }
        };
        for item in c.items() {
            if !item.path.is_empty() || !item.sections.is_empty() {
                diags.push(refusal(item.span, "a member or section in `linear`"));
                continue;
            }
            let Some(i) = vars.iter().position(|v| v.sym.name == item.name) else {
                diags.push(refusal(
                    item.span,
                    "a `linear` variable the loop does not name",
                ));
                continue;
            };
            let v = &mut vars[i];
            let integer = v.sym.ty.is_scalar()
                && crate::sema::arith::classify(&v.sym.ty.base, symbols)
                    .is_some_and(|a| a.is_integer());
            if !integer {
                diags.push(refusal(
                    item.span,
                    "a `linear` variable that is not an integer scalar",
                ));
                continue;
            }
            v.attr = Attr::Lastprivate { conditional: false };
            v.rule = RULE;
            v.span = item.span;
            if !loop_vars.contains(&item.name) {
                linear.push(Linear {
                    var: i,
                    step: step.clone(),
                });
            }
        }
    }
    (diags.len() == errors).then_some(linear)
}

/// The step's C text: `1` when absent, the expression after the colon, or
/// the argument of OpenMP 5.2's `step(...)`.
fn step_of(c: &crate::directives::Clause) -> Result<String, &'static str> {
    match c.modifiers() {
        [] => Ok("1".to_string()),
        [m] => {
            let t = m.text.trim();
            if matches!(t, "val" | "ref" | "uval") {
                return Err("a `linear` modifier");
            }
            match t.strip_prefix("step") {
                Some(rest) if rest.trim_start().starts_with('(') && rest.ends_with(')') => {
                    let inner = rest.trim_start();
                    Ok(inner[1..inner.len() - 1].trim().to_string())
                }
                _ => Ok(t.to_string()),
            }
        }
        _ => Err("a `linear` modifier"),
    }
}

fn refusal(at: crate::source::Span, what: &str) -> Diagnostic {
    Diagnostic::new(
        codes::NOT_SUPPORTED,
        at,
        format!("{what} is not supported yet"),
    )
    .with_label("not lowered yet")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn step(clause: &str) -> Result<String, &'static str> {
        let src = format!("#pragma omp parallel for {clause}");
        let (d, _) = crate::directives::parse_pragma(&src, Span::new(0, src.len()));
        let d = d.expect("an OpenMP directive");
        step_of(d.clause("linear").expect("a linear clause"))
    }

    #[test]
    fn steps_are_read_in_every_spelling() {
        assert_eq!(step("linear(x)"), Ok("1".to_string()));
        assert_eq!(step("linear(x: 2 * n)"), Ok("2 * n".to_string()));
        assert_eq!(step("linear(x: step(-k))"), Ok("-k".to_string()));
        assert!(step("linear(x: val)").is_err());
        assert!(step("linear(x: val, step(2))").is_err());
    }
}
