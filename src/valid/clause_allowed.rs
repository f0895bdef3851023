//! E0201 `clause_allowed`: every clause must be one the directive takes.
//!
//! Each OpenMP 5.2 and OpenACC 3.3 directive has a fixed set of clauses; a
//! combined directive (`target teams distribute parallel for`, `parallel
//! loop`) takes the clauses of each construct it is made of. A clause outside
//! that set is an error in every compiler, and pragma2cuda would otherwise
//! have to guess what it means. Also checked here:
//!
//! - OpenMP: a combined `parallel` worksharing construct (`parallel for`)
//!   takes no `nowait` unless `target` is its first construct;
//! - OpenMP: the directive-name modifier of `if` (`if(target: c)`) must name
//!   one of the directive's constructs;
//! - OpenACC: after a `device_type` clause only the clauses that can be
//!   specialised per device may follow (`async`, `wait`, `num_gangs`,
//!   `num_workers`, `vector_length` on compute constructs; `collapse`, `gang`,
//!   `worker`, `vector`, `seq`, `independent`, `auto`, `tile` on loops).
//!
//! Bad:
//!
//! ```c
//! #pragma acc parallel gang copy(a[0:n])
//! for (int i = 0; i < n; i++) a[i] += 1;
//! ```
//!
//! `gang` is a clause of the `loop` construct, not of `parallel`. Fix: use the
//! combined construct, `#pragma acc parallel loop gang copy(a[0:n])`. The
//! diagnostic suggests the shortest directive that extends the one written
//! and takes the clause, or names the constructs that take it.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{table, ClauseArgs, Directive, Model};

pub const CODES: &[Code] = &[codes::CLAUSE_NOT_ALLOWED];

/// The shortest directive made of `d`'s constructs and more that takes
/// `clause` (`parallel` + `gang` -> `parallel loop`, `target parallel for` +
/// `num_teams` -> `target teams distribute parallel for`).
fn longer_directive(d: &Directive, clause: &str) -> Option<&'static str> {
    let mine = spec::leaves_of(d);
    table::directives(d.model)
        .iter()
        .copied()
        .filter(|n| {
            let theirs = spec::leaves(d.model, n);
            let mut it = theirs.iter();
            theirs.len() > mine.len()
                && mine.iter().all(|l| it.any(|t| t == l))
                && spec::allowed_on(d.model, n, clause)
        })
        .min_by_key(|n| (n.len(), *n))
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        let title = cx.title(i);
        let after_device_type = spec::acc_device_type_clauses(d);
        let mut group = None;
        for c in &d.clauses {
            if !spec::clause_allowed(d, &c.name) {
                let mut diag = Diagnostic::new(
                    codes::CLAUSE_NOT_ALLOWED,
                    c.name_span,
                    format!("clause `{}` is not allowed on `{title}`", c.name),
                )
                .with_label("not allowed here");
                let takers = spec::leaves_taking(d.model, &c.name);
                if c.name == "nowait" && d.model == Model::Omp && !takers.is_empty() {
                    diag = diag.with_note(
                        "a combined `parallel` worksharing construct takes no `nowait`: its end is the end of the parallel region",
                    );
                } else if let Some(longer) = longer_directive(d, &c.name) {
                    diag = diag.with_help(format!(
                        "did you mean `{} {longer}`?",
                        d.model.as_str()
                    ));
                } else if !takers.is_empty() {
                    let list = takers
                        .iter()
                        .map(|l| format!("`{l}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    diag = diag.with_note(format!("`{}` is a clause of {list}", c.name));
                }
                out.push(i, diag);
                continue;
            }
            if d.model == Model::Acc && matches!(c.name.as_str(), "device_type" | "dtype") {
                group = Some(c);
                continue;
            }
            if let (Some(g), Some(allowed)) = (group, &after_device_type) {
                if !allowed.contains(&c.name.as_str()) {
                    out.push(
                        i,
                        Diagnostic::new(
                            codes::CLAUSE_NOT_ALLOWED,
                            c.name_span,
                            format!(
                                "clause `{}` may not follow `{}` on `{title}`",
                                c.name, g.name
                            ),
                        )
                        .with_label("after a device_type clause")
                        .with_secondary(g.span, "device-specific clauses start here")
                        .with_help(format!(
                            "move `{}` before the first `{}` clause",
                            c.name, g.name
                        )),
                    );
                }
            }
            if d.model == Model::Omp && c.name == "if" {
                if let ClauseArgs::Expr {
                    modifier: Some(m), ..
                } = &c.args
                {
                    let ls = spec::leaves_of(d);
                    if !ls.contains(&m.text.as_str()) && table::is_if_modifier(&m.text) {
                        let list = ls
                            .iter()
                            .map(|l| format!("`{l}`"))
                            .collect::<Vec<_>>()
                            .join(", ");
                        out.push(
                            i,
                            Diagnostic::new(
                                codes::CLAUSE_NOT_ALLOWED,
                                m.span,
                                format!(
                                    "`if({}: ...)` names a construct that `{title}` does not contain",
                                    m.text
                                ),
                            )
                            .with_label("not a construct of this directive")
                            .with_help(format!("the modifier may be {list}")),
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::{assert_codes, run_rule};

    #[test]
    fn clauses_outside_the_table_are_reported() {
        let src = "void f(int n, double *a) {\n\
            #pragma acc parallel gang copy(a[0:n])\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp target parallel for num_teams(4) map(tofrom: a[0:n])\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp parallel for nowait\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            }\n";
        assert_codes("clause_allowed", src, "E0201", &[2, 4, 6]);
    }

    #[test]
    fn combined_directives_take_every_constituent_clause() {
        let src = "void f(int n, double *a, double s) {\n\
            #pragma omp target teams distribute parallel for simd num_teams(4) thread_limit(64) map(tofrom: a[0:n]) reduction(+: s) schedule(static) dist_schedule(static) safelen(8) nowait\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma acc kernels loop gang vector copy(a[0:n]) num_gangs(4) independent\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp for simd nowait\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            }\n";
        assert_eq!(run_rule("clause_allowed", src), []);
    }

    #[test]
    fn device_type_groups_and_if_modifiers() {
        let src = "void f(int n, double *a) {\n\
            #pragma acc parallel loop device_type(nvidia) num_gangs(8) copy(a[0:n])\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp target teams distribute parallel for if(parallel: n > 9) if(target: n > 1)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp parallel for if(target: n > 1)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            }\n";
        let got = run_rule("clause_allowed", src);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].2.contains("may not follow `device_type`"), "{got:?}");
        assert_eq!(got[1].1, 6);
    }

    fn help_for(pragma: &str) -> (Option<String>, Vec<String>) {
        let src = format!(
            "void f(int n, double *a) {{\n{pragma}\nfor (int i = 0; i < n; i++) a[i] += 1;\n}}\n"
        );
        let file = crate::source::SourceFile::new("t.c", src);
        let t = crate::translate(&file, &crate::Options::default());
        let d = t
            .diagnostics
            .iter()
            .find(|d| d.code.as_str() == "E0201")
            .expect("E0201");
        (d.help.clone(), d.notes.clone())
    }

    #[test]
    fn suggestion_names_a_directive_that_takes_the_clause() {
        assert_eq!(
            help_for("#pragma acc parallel gang").0.as_deref(),
            Some("did you mean `acc parallel loop`?")
        );
        assert_eq!(
            help_for("#pragma omp target parallel for num_teams(2)").0.as_deref(),
            Some("did you mean `omp target teams distribute parallel for`?")
        );
        let (help, notes) = help_for("#pragma omp parallel for copyprivate(n)");
        assert_eq!(help, None);
        assert_eq!(notes, ["`copyprivate` is a clause of `single`"]);
    }
}
