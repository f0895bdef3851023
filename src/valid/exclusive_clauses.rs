//! E0214 `exclusive_clauses`: clauses that exclude each other.
//!
//! Some clauses are alternatives, and a directive may pick only one of them;
//! others contradict each other outright. Checked:
//!
//! - OpenACC loops: at most one of `seq`, `independent`, `auto`, and `seq`
//!   never with `gang`, `worker` or `vector` (per `device_type` group);
//! - OpenACC `routine`: at most one of `gang`, `worker`, `vector`, `seq`;
//! - OpenACC `atomic`: at most one of `read`, `write`, `update`, `capture`;
//! - OpenACC `parallel`: no `reduction` when `num_gangs` has several values;
//! - OpenMP `atomic`: at most one of `read`, `write`, `update`, and neither
//!   `read` nor `write` with `capture` or `compare`;
//! - OpenMP memory orders (`seq_cst`, `acq_rel`, `release`, `acquire`,
//!   `relaxed`): at most one; `flush` with a memory order takes no list;
//! - OpenMP `unroll full` / `partial`, `declare simd inbranch` / `notinbranch`,
//!   `taskloop grainsize` / `num_tasks`, `taskloop nogroup` / `reduction`,
//!   `ordered threads|simd` / `doacross|depend`, and
//!   `schedule(nonmonotonic: ...)` with `ordered`.
//!
//! Bad:
//!
//! ```c
//! #pragma acc parallel loop seq gang
//! for (int i = 0; i < n; i++) a[i] += 1;
//! ```
//!
//! `seq` runs the loop sequentially, `gang` shares it among gangs. Fix: keep
//! the one you mean. The diagnostic points at the later clause and labels the
//! earlier one.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{Clause, ClauseArgs, Directive, Model};

pub const CODES: &[Code] = &[codes::EXCLUSIVE_CLAUSES];

/// Two sets of clause names: a clause of `a` excludes every clause of `b`
/// (and, when `b` is empty, every other clause of `a`).
struct Exclusion {
    a: &'static [&'static str],
    b: &'static [&'static str],
}

const MEMORY_ORDERS: &[&str] = &["seq_cst", "acq_rel", "release", "acquire", "relaxed"];

fn exclusions(d: &Directive) -> Vec<Exclusion> {
    let ls = spec::leaves_of(d);
    let mut v = Vec::new();
    let ex = |a, b| Exclusion { a, b };
    match d.model {
        Model::Acc => {
            if ls.contains(&"loop") {
                v.push(ex(&["seq", "independent", "auto"], &[]));
                v.push(ex(&["seq"], &["gang", "worker", "vector"]));
            }
            if ls.contains(&"routine") {
                v.push(ex(&["gang", "worker", "vector", "seq"], &[]));
            }
            if ls.contains(&"atomic") {
                v.push(ex(&["read", "write", "update", "capture"], &[]));
            }
        }
        Model::Omp => {
            if ls.contains(&"atomic") {
                v.push(ex(&["read", "write", "update"], &[]));
                v.push(ex(&["read", "write"], &["capture", "compare"]));
            }
            if ls.contains(&"atomic") || ls.contains(&"flush") {
                v.push(ex(MEMORY_ORDERS, &[]));
            }
            if ls.contains(&"unroll") {
                v.push(ex(&["full"], &["partial"]));
            }
            if ls.contains(&"declare simd") {
                v.push(ex(&["inbranch"], &["notinbranch"]));
            }
            if ls.contains(&"taskloop") {
                v.push(ex(&["grainsize"], &["num_tasks"]));
                v.push(ex(&["nogroup"], &["reduction"]));
            }
            if ls.contains(&"ordered") {
                v.push(ex(&["threads", "simd"], &["doacross", "depend"]));
            }
        }
    }
    v
}

fn report(cx: &Context, i: usize, later: &Clause, earlier: &Clause, out: &mut Sink) {
    out.push(
        i,
        Diagnostic::new(
            codes::EXCLUSIVE_CLAUSES,
            later.name_span,
            format!(
                "`{}` and `{}` exclude each other on `{}`",
                earlier.name,
                later.name,
                cx.title(i)
            ),
        )
        .with_label("conflicts with an earlier clause")
        .with_secondary(earlier.span, "this one")
        .with_help("keep one of them"),
    );
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        let rules = exclusions(d);
        // Clauses grouped by OpenACC device_type (one group for OpenMP).
        let mut groups: Vec<Vec<&Clause>> = vec![Vec::new()];
        for c in &d.clauses {
            if d.model == Model::Acc && matches!(c.name.as_str(), "device_type" | "dtype") {
                groups.push(Vec::new());
            } else if let Some(g) = groups.last_mut() {
                g.push(c);
            }
        }
        for g in &groups {
            for (k, later) in g.iter().enumerate() {
                let hit = g[..k].iter().find(|earlier| {
                    earlier.name != later.name
                        && rules.iter().any(|r| {
                            let (e, l) = (earlier.name.as_str(), later.name.as_str());
                            if r.b.is_empty() {
                                r.a.contains(&e) && r.a.contains(&l)
                            } else {
                                (r.a.contains(&e) && r.b.contains(&l))
                                    || (r.b.contains(&e) && r.a.contains(&l))
                            }
                        })
                });
                if let Some(earlier) = hit {
                    report(cx, i, later, earlier, out);
                }
            }
        }
        // Special cases that look inside arguments.
        let ls = spec::leaves_of(d);
        if d.model == Model::Acc && ls.contains(&"parallel") {
            if let (Some(ng), Some(red)) = (d.clause("num_gangs"), d.clause("reduction")) {
                if ng.args_list().len() > 1 {
                    report(cx, i, red, ng, out);
                }
            }
        }
        if d.model == Model::Omp && ls.contains(&"flush") {
            if let (Some(arg), Some(mo)) = (
                &d.arg,
                d.clauses
                    .iter()
                    .find(|c| MEMORY_ORDERS.contains(&c.name.as_str())),
            ) {
                out.push(
                    i,
                    Diagnostic::new(
                        codes::EXCLUSIVE_CLAUSES,
                        arg.span,
                        format!("`flush {}` takes no list", mo.name),
                    )
                    .with_label("list not allowed with a memory order")
                    .with_secondary(mo.span, "memory order here"),
                );
            }
        }
        if d.model == Model::Omp {
            if let (Some(s), Some(o)) = (d.clause("schedule"), d.clause("ordered")) {
                let nonmonotonic = match &s.args {
                    ClauseArgs::Args(a) => a.iter().any(|a| a.value.text == "nonmonotonic"),
                    _ => false,
                };
                if nonmonotonic {
                    report(cx, i, o, s, out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn excluding_pairs() {
        let src = "void f(int n, double *a, double s) {\n\
            #pragma acc parallel loop seq gang\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma acc parallel loop independent auto\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma acc parallel loop seq device_type(nvidia) gang\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma acc parallel num_gangs(2, 4) reduction(+: s)\n\
            { s += 1; }\n\
            #pragma omp atomic read write\n\
            s = a[0];\n\
            #pragma omp unroll full partial(2)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp for schedule(nonmonotonic: dynamic) ordered\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp flush seq_cst (a)\n\
            }\n";
        assert_codes("exclusive_clauses", src, "E0214", &[2, 4, 8, 10, 12, 14]);
    }
}
