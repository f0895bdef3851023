//! E0220 `standalone_as_body`: a stand-alone directive is not a statement.
//!
//! Stand-alone directives (`omp target update`, `target enter data`,
//! `target exit data`, `barrier`, `taskwait`, `taskyield`, `flush`,
//! `cancel`, `cancellation point`, `depobj`, `interop`, `ordered` with
//! `depend`/`doacross`; `acc update`, `enter data`, `exit data`, `wait`,
//! `init`, `shutdown`, `set`) may only be used where a compound statement
//! holds them: never as the unbraced body of `if`, `else`, `for`, `while`
//! or `do`. gcc and clang reject them there ("may only be used in compound
//! statements"); reading on would make the statement after the directive the
//! body instead, so the directive would run unconditionally and the
//! statement conditionally.
//!
//! Bad:
//!
//! ```c
//! if (changed)
//! #pragma omp target update to(a[0:n])
//! sum = 0;
//! ```
//!
//! Fix: put braces around the directive (and the statements it should be
//! governed with): `if (changed) { #pragma omp target update ... }`.

use super::{Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{Directive, Model};
use crate::front::fields::NodeFields;
use crate::front::c::Node;

pub const CODES: &[Code] = &[codes::STANDALONE_AS_BODY];

/// Whether the directive is an executable stand-alone directive.
fn is_standalone(d: &Directive) -> bool {
    match d.model {
        Model::Omp => match d.name.as_str() {
            "ordered" => d.clause("depend").is_some() || d.clause("doacross").is_some(),
            n => matches!(
                n,
                "barrier"
                    | "taskwait"
                    | "taskyield"
                    | "flush"
                    | "target update"
                    | "target enter data"
                    | "target exit data"
                    | "cancel"
                    | "cancellation point"
                    | "depobj"
                    | "interop"
            ),
        },
        Model::Acc => matches!(
            d.name.as_str(),
            "update" | "enter data" | "exit data" | "wait" | "init" | "shutdown" | "set"
        ),
    }
}

/// The statement (`if`, `else`, `for`, `while`, `do`) whose body is `stmt`.
fn body_of<'t>(stmt: Node<'t>) -> Option<(Node<'t>, &'static str)> {
    let p = stmt.parent()?;
    let (owner, field, word) = match p.kind_name() {
        "if_statement" => (p, "consequence", "if"),
        "else_clause" => return Some((p, "else")),
        "for_statement" => (p, "body", "for"),
        "while_statement" => (p, "body", "while"),
        "do_statement" => (p, "body", "do"),
        _ => return None,
    };
    (owner.field(field)?.id() == stmt.id()).then_some((owner, word))
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if !is_standalone(d) {
            continue;
        }
        let Some(stmt) = cx.stmt_node(i) else {
            continue;
        };
        // The statement after the pragma is a body only when nothing but
        // blanks, comments and masked pragmas separates them.
        let Some((owner, word)) = body_of(stmt) else {
            continue;
        };
        out.push(
            i,
            Diagnostic::new(
                codes::STANDALONE_AS_BODY,
                d.name_span,
                format!(
                    "`{}` is a stand-alone directive: it may only be used in a compound statement, not as the body of `{word}`",
                    cx.title(i)
                ),
            )
            .with_label("the body of this statement")
            .with_secondary(
                crate::source::Span::new(owner.start_byte(), owner.start_byte() + word.len()),
                format!("`{word}` without braces"),
            )
            .with_help("put braces around the directive: `{ #pragma ... }`"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn standalone_directives_as_bodies() {
        let src = "void f(int n, double *a, int c) {\n\
            if (c)\n\
            #pragma omp target update to(a[0:n])\n\
            a[0] = 1;\n\
            else\n\
            #pragma acc update self(a[0:n])\n\
            a[0] = 2;\n\
            for (int i = 0; i < n; i++)\n\
            #pragma omp barrier\n\
            a[i] = 0;\n\
            while (c--)\n\
            #pragma acc wait\n\
            { a[0] += 1; }\n\
            if (c) {\n\
            #pragma omp target update from(a[0:n])\n\
            a[0] = 1;\n\
            }\n\
            #pragma omp taskwait\n\
            a[1] = 3;\n\
            }\n";
        assert_codes("standalone_as_body", src, "E0220", &[3, 6, 9, 12]);
    }
}
