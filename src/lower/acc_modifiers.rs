//! OpenACC data-clause modifiers (OpenACC 3.3 2.7.5-2.7.9): `readonly` on
//! `copyin` is a hint that the data is not written, which the translation
//! may ignore; `zero` on `copyout` / `create` (and their `present_or_` /
//! `p` aliases) zero-fills the device copy when it is created: the present
//! table does so (`P2C_MAP_ZERO`) for data, compute and enter-data
//! constructs and function-scope `declare`. A file-scope `declare` makes a
//! `__device__` twin initialised like the host variable, so `zero:` there
//! is refused with a located E0901 on the modifier.

use crate::diag::{codes, Diagnostic};
use crate::directives::{Clause, Directive, Model};

/// Refuses the `zero:` modifier of clause `c` of a file-scope `acc declare`.
pub fn refuse_zero_at_file_scope(d: &Directive, c: &Clause, diags: &mut Vec<Diagnostic>) {
    if d.model != Model::Acc {
        return;
    }
    for m in c.modifiers().iter().filter(|m| m.text == "zero") {
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                m.span,
                format!(
                    "the `zero` modifier of `{}` on a file-scope `acc declare` is not supported yet",
                    c.name
                ),
            )
            .with_label("the device copy starts as the host variable's initialiser")
            .with_note("zero the variable on the host before its first use, or declare it inside the function"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn refusals(pragma: &str) -> Vec<String> {
        let d = crate::directives::parse_pragma(pragma, Span::new(0, pragma.len()))
            .0
            .expect("a directive");
        let mut diags = Vec::new();
        for c in &d.clauses {
            refuse_zero_at_file_scope(&d, c, &mut diags);
        }
        diags.iter().map(|d| d.message.clone()).collect()
    }

    #[test]
    fn zero_is_refused_at_file_scope_and_readonly_is_not() {
        assert_eq!(
            refusals("#pragma acc declare create(zero: a) copyin(readonly: b)"),
            ["the `zero` modifier of `create` on a file-scope `acc declare` is not supported yet"]
        );
        assert!(refusals("#pragma acc declare copyin(readonly: b)").is_empty());
    }
}
