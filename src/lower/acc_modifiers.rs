//! OpenACC data-clause modifiers (OpenACC 3.3 2.7.5-2.7.9): `readonly` on
//! `copyin` is a hint that the data is not written, which the translation
//! may ignore; `zero` on `copyout` / `create` (and their `present_or_` /
//! `p` aliases) zero-fills the device copy when it is created, which the
//! present table does not do yet. Dropping it would leave the program
//! reading uninitialised device memory, so each `zero:` is refused with a
//! located E0901 on the modifier.

use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, Model};

/// Refuses every `zero:` modifier of an OpenACC directive's data clauses.
pub fn check(d: &Directive, diags: &mut Vec<Diagnostic>) {
    if d.model != Model::Acc {
        return;
    }
    for c in &d.clauses {
        for m in c.modifiers().iter().filter(|m| m.text == "zero") {
            diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    m.span,
                    format!(
                        "the `zero` modifier of `{}` on `acc {}` is not supported yet",
                        c.name, d.name
                    ),
                )
                .with_label("the device copy would not be zero-filled")
                .with_note("fill the data with zeros on the host and use `copyin`, or zero it in a compute construct"),
            );
        }
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
        check(&d, &mut diags);
        diags.iter().map(|d| d.message.clone()).collect()
    }

    #[test]
    fn zero_is_refused_and_readonly_is_not() {
        assert_eq!(
            refusals("#pragma acc data create(zero: a[0:n]) copyin(readonly: b[0:n])"),
            ["the `zero` modifier of `create` on `acc data` is not supported yet"]
        );
        assert_eq!(
            refusals("#pragma acc parallel loop copyout(zero: a[0:n])").len(),
            1
        );
        assert!(refusals("#pragma acc enter data copyin(readonly: b[0:n])").is_empty());
    }
}
