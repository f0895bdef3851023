//! E0206 `default_none`: with `default(none)` (or OpenMP's `defaultmap(none)`), every variable is listed.
//!
//! `default(none)` switches off the implicit data-sharing rules: every
//! variable the construct references must then appear in one of its data
//! clauses (`shared`, `private`, `firstprivate`, `lastprivate`, `reduction`,
//! `map`, ... for OpenMP; `copy`, `copyin`, `copyout`, `create`, `present`,
//! `private`, `firstprivate`, `reduction`, ... for OpenACC). Users write it to
//! make every transfer explicit, so a variable left out is reported at its
//! first use, one diagnostic per variable.
//!
//! Not reported: variables declared inside the construct, the iteration
//! variables of the loops associated with the directive or with a loop
//! directive inside it (they are predetermined private), `threadprivate`
//! variables, and functions. For OpenACC, a `default(none)` on an enclosing
//! `data` construct applies to the compute constructs inside it, and the data
//! clauses of enclosing `data` constructs count as listings.
//!
//! Bad:
//!
//! ```c
//! #pragma acc parallel loop default(none) copy(a[0:n])
//! for (int i = 0; i < n; i++) a[i] *= scale;
//! ```
//!
//! Fix: list `scale` (and `n`, which the loop bound uses), for example
//! `firstprivate(n, scale)`.
//!
//! OpenMP's `defaultmap(none[: category])` on a target construct does the
//! same for the implicit data-mapping rules of one variable category
//! (`scalar`, `aggregate`: arrays and structures, `pointer`; no category or
//! `all`: every variable): each variable of the category that the construct
//! references must be listed in a data-mapping or data-sharing clause
//! (`map`, `firstprivate`, `private`, `reduction`, `is_device_ptr`, ...).
//! Variables with a device copy (`declare target`) need no listing.
//!
//! ```c
//! #pragma omp target teams distribute parallel for defaultmap(none: scalar) map(tofrom: a[0:n])
//! for (int i = 0; i < n; i++) a[i] *= scale;
//! ```
//!
//! Fix: `firstprivate(n, scale)`, or `map(tofrom: ...)` for a scalar whose
//! value the host needs back.

use super::{loop_association, spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{Clause, ClauseArgs, Model};
use crate::sema::sharing::{self, Behavior, Category};
use crate::sema::{loops, uses, Storage};
use std::collections::BTreeSet;

pub const CODES: &[Code] = &[codes::DEFAULT_NONE];

fn default_none(c: &Clause) -> bool {
    c.name == "default" && c.keyword() == Some("none")
}

/// Names listed in any list clause of directive `j`.
fn listed(cx: &Context, j: usize, into: &mut BTreeSet<String>) {
    let d = cx.directive(j);
    for c in &d.clauses {
        into.extend(c.items().iter().map(|it| it.name.clone()));
    }
}

/// Iteration variables of the loops associated with loop directive `j`.
fn loop_vars(cx: &Context, j: usize, into: &mut BTreeSet<String>) {
    let d = cx.directive(j);
    if !spec::is_loop_directive(d) {
        return;
    }
    let Some(mut node) = cx.stmt_node(j) else {
        return;
    };
    let (n, ..) = loop_association::depth(d);
    for level in 0..n {
        match loops::analyse(node, &cx.file.text) {
            Ok(l) => into.insert(l.var),
            Err(_) => return,
        };
        if level + 1 < n {
            match loops::nested_loop(node) {
                Some(inner) => node = inner,
                None => return,
            }
        }
    }
}

/// The file-scope variables with a device copy: listed by `declare target`
/// (list forms) or declared between `begin declare target` (or `declare
/// target` without a list) and `end declare target`.
struct DeclareTarget {
    names: BTreeSet<String>,
    ranges: Vec<(usize, usize)>,
}

impl DeclareTarget {
    fn of(cx: &Context) -> DeclareTarget {
        let mut names = BTreeSet::new();
        let mut ranges = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        for j in 0..cx.len() {
            let d = cx.directive(j);
            if d.model != Model::Omp {
                continue;
            }
            match d.name.as_str() {
                "declare target" | "begin declare target" => {
                    let mut listed: Vec<&str> = d
                        .clauses
                        .iter()
                        .filter(|c| matches!(c.name.as_str(), "enter" | "to" | "link"))
                        .flat_map(|c| c.items().iter().map(|it| it.name.as_str()))
                        .collect();
                    let has_list = d.arg.is_some()
                        || d.clauses
                            .iter()
                            .any(|c| matches!(c.name.as_str(), "enter" | "to" | "link"));
                    if let Some(a) = &d.arg {
                        if let ClauseArgs::List { items, .. } = &a.args {
                            listed.extend(items.iter().map(|it| it.name.as_str()));
                        }
                    }
                    names.extend(listed.into_iter().map(String::from));
                    if !has_list {
                        open.push(d.span.end);
                    }
                }
                "end declare target" => {
                    if let Some(start) = open.pop() {
                        ranges.push((start, d.span.start));
                    }
                }
                _ => {}
            }
        }
        DeclareTarget { names, ranges }
    }

    fn contains(&self, sym: &crate::sema::Symbol) -> bool {
        self.names.contains(&sym.name)
            || self
                .ranges
                .iter()
                .any(|&(a, b)| a <= sym.span.start && sym.span.start < b)
    }
}

pub fn check(cx: &Context, out: &mut Sink) {
    let threadprivate: BTreeSet<String> = (0..cx.len())
        .filter(|&j| cx.directive(j).name == "threadprivate")
        .filter_map(|j| cx.directive(j).arg.as_ref())
        .filter_map(|a| match &a.args {
            ClauseArgs::List { items, .. } => Some(items.iter().map(|it| it.name.clone())),
            _ => None,
        })
        .flatten()
        .collect();
    let declared = DeclareTarget::of(cx);
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if cx.malformed(i) {
            // A clause the parser dropped may be the one missing here.
            continue;
        }
        if !spec::has_block(d) {
            continue;
        }
        // The default(none) in effect, and the enclosing OpenACC data constructs.
        let mut clause = d.clauses.iter().find(|c| default_none(c));
        let acc_compute = d.model == Model::Acc && spec::is_acc_compute(d);
        let acc_data = |j: usize| {
            let a = cx.directive(j);
            a.model == Model::Acc && a.name == "data"
        };
        if acc_compute && clause.is_none() && d.clause("default").is_none() {
            clause = cx
                .ancestors(i)
                .filter(|&j| acc_data(j))
                .find_map(|j| cx.directive(j).clauses.iter().find(|c| default_none(c)));
        }
        // OpenMP `defaultmap(none[: category])` on a target construct.
        let defaultmap_none = d.model == Model::Omp
            && d.clauses_named("defaultmap").any(|c| {
                c.positional_args().next().map(|a| a.text.as_str()) == Some("none")
            });
        if clause.is_none() && !defaultmap_none {
            continue;
        }
        if d.model == Model::Acc && !spec::is_acc_compute(d) {
            // On an OpenACC data construct default(none) is for the compute
            // constructs inside it, checked there.
            continue;
        }
        let Some(stmt) = cx.stmt_node(i) else {
            continue;
        };
        // The names listed here and on the enclosing OpenACC data constructs.
        let mut names = BTreeSet::new();
        listed(cx, i, &mut names);
        if acc_compute {
            for j in cx.ancestors(i).filter(|&j| acc_data(j)) {
                listed(cx, j, &mut names);
            }
        }
        let mut exempt = threadprivate.clone();
        loop_vars(cx, i, &mut exempt);
        for j in cx.descendants(i) {
            loop_vars(cx, j, &mut exempt);
        }
        let Some(symbols) = cx.symbols_at(i) else {
            continue;
        };
        let (used, _) = uses::free_identifiers(stmt, &cx.file.text);
        for u in used {
            if names.contains(&u.name) || exempt.contains(&u.name) {
                continue;
            }
            let Some(sym) = symbols.get(&u.name) else {
                continue;
            };
            if sym.is_typedef || sym.ty.is_function() {
                continue;
            }
            let Some(clause) = clause else {
                // defaultmap(none): only the categories it names, and not
                // the variables with a device copy (declare target).
                if sym.storage == Storage::Global && declared.contains(sym) {
                    continue;
                }
                let typedef_of = |n: &str| {
                    symbols
                        .get(n)
                        .filter(|s| s.is_typedef)
                        .map(|s| s.ty.clone())
                };
                let cat = sharing::category(&sym.ty, &typedef_of);
                let Some((Behavior::None, dm)) = sharing::defaultmap_for(d, cat) else {
                    continue;
                };
                let help = if cat == Some(Category::Pointer) {
                    format!(
                        "list it, e.g. `map(tofrom: {0}[0:n])` or `is_device_ptr({0})`",
                        u.name
                    )
                } else {
                    format!(
                        "list it, e.g. `map(tofrom: {0})` or `firstprivate({0})`",
                        u.name
                    )
                };
                out.push(
                    i,
                    Diagnostic::new(
                        codes::DEFAULT_NONE,
                        u.span,
                        format!(
                            "`{}` is used under `{}` but listed in no data clause",
                            u.name,
                            sharing::defaultmap_text(dm)
                        ),
                    )
                    .with_label("first use")
                    .with_secondary(dm.span, "no implicit rule for this category")
                    .with_help(help),
                );
                continue;
            };
            let help = match (d.model, sym.ty.is_scalar()) {
                (Model::Omp, _) => format!(
                    "list it, e.g. `shared({0})`, `firstprivate({0})` or `private({0})`",
                    u.name
                ),
                (Model::Acc, true) => format!("list it, e.g. `firstprivate({})`", u.name),
                (Model::Acc, false) => format!("list it, e.g. `copy({})`", u.name),
            };
            out.push(
                i,
                Diagnostic::new(
                    codes::DEFAULT_NONE,
                    u.span,
                    format!(
                        "`{}` is used under `default(none)` but listed in no data clause",
                        u.name
                    ),
                )
                .with_label("first use")
                .with_secondary(clause.span, "default(none) here")
                .with_help(help),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::run_rule;

    #[test]
    fn unlisted_variables_at_their_first_use() {
        let src = "int tp;\n\
            #pragma omp threadprivate(tp)\n\
            void f(int n, double *a, double scale) {\n\
            int i;\n\
            #pragma acc parallel loop default(none) copy(a[0:n])\n\
            for (i = 0; i < n; i++)\n\
            a[i] *= scale;\n\
            #pragma omp parallel default(none) shared(a, n)\n\
            {\n\
            #pragma omp for\n\
            for (int j = 0; j < n; j++) a[j] += tp + scale;\n\
            }\n\
            #pragma acc data default(none) copy(a[0:n])\n\
            {\n\
            #pragma acc parallel loop firstprivate(n)\n\
            for (int k = 0; k < n; k++) a[k] *= scale;\n\
            }\n\
            }\n";
        let got: Vec<(usize, String)> = run_rule("default_none", src)
            .into_iter()
            .map(|(_, l, m)| (l, m.split('`').nth(1).unwrap_or("").to_string()))
            .collect();
        assert_eq!(
            got,
            [
                (6, "n".to_string()),
                (7, "scale".to_string()),
                (11, "scale".to_string()),
                (16, "scale".to_string()),
            ]
        );
    }
}
