//! E0204 `conflicting_clauses`: one variable, contradictory clauses.
//!
//! A variable's data-sharing attribute on a construct must be unambiguous.
//! Reported:
//!
//! - a variable in two data-sharing clauses (`private`, `firstprivate`,
//!   `lastprivate`, `shared`, `reduction`, `linear`, ... for OpenMP;
//!   `private`, `firstprivate`, `reduction` for OpenACC), or twice in the same
//!   one; the one exception is OpenMP `firstprivate` with `lastprivate`;
//! - a variable in a data-mapping clause (`map`, `is_device_ptr`,
//!   `has_device_addr`; OpenACC `copy`, `copyin`, `create`, `present`, ...)
//!   and in `private`, `firstprivate`, `lastprivate` or `linear` on the same
//!   construct, when the directive is not a combined one (on a combined
//!   directive such as `target teams distribute parallel for` the map applies
//!   to `target` and the privatization to an inner construct, which the
//!   specifications allow).
//!
//! - a variable twice in the same data-mapping clause (`map(to: n, n)`,
//!   `copyin(a, a)`), which gcc rejects too.
//!
//! The same variable in two mapping clauses, or in a mapping clause and a
//! `reduction`, is allowed by the specifications and not reported here.
//!
//! Bad:
//!
//! ```c
//! #pragma omp target teams distribute parallel for private(t) reduction(+: t)
//! for (int i = 0; i < n; i++) t += a[i];
//! ```
//!
//! `private` gives each thread an uninitialised copy that is thrown away,
//! `reduction` combines the copies into `t`. Fix: keep `reduction(+: t)`. The
//! diagnostic points at the later item and labels the earlier clause.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{ListItem, Model};
use std::collections::{HashMap, HashSet};

pub const CODES: &[Code] = &[codes::CONFLICTING_CLAUSES];

fn privatizing(name: &str) -> bool {
    matches!(name, "private" | "firstprivate" | "lastprivate" | "linear")
}

/// Why the two clauses conflict on the same variable, if they do.
fn conflict(model: Model, combined: bool, a: &str, b: &str) -> Option<&'static str> {
    let (sa, sb) = (
        spec::is_sharing_clause(model, a),
        spec::is_sharing_clause(model, b),
    );
    let (ma, mb) = (spec::is_map_clause(model, a), spec::is_map_clause(model, b));
    if sa && sb {
        if model == Model::Omp
            && a != b
            && matches!(a, "firstprivate" | "lastprivate")
            && matches!(b, "firstprivate" | "lastprivate")
        {
            return None;
        }
        return Some("a variable may appear in only one data-sharing clause");
    }
    if !combined && ((ma && privatizing(b)) || (mb && privatizing(a))) {
        return Some("a mapped variable cannot also be private to the same construct");
    }
    None
}

/// The variable a list item names, members included (`s.a` and `s.b` differ).
fn var(item: &ListItem) -> String {
    format!("{}{}", item.name, item.path)
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        let combined = spec::leaves_of(d).len() > 1;
        // Per variable, the distinct clauses (by index) it was seen in: a
        // list of thousands of items costs a hash lookup each, not a scan.
        let mut seen: HashMap<String, Vec<usize>> = HashMap::new();
        // (variable, clause) pairs already reported: a duplicate is
        // reported once per clause however often it repeats.
        let mut reported: HashSet<(String, usize)> = HashSet::new();
        for (ci, c) in d.clauses.iter().enumerate() {
            let relevant =
                spec::is_sharing_clause(d.model, &c.name) || spec::is_map_clause(d.model, &c.name);
            if !relevant {
                continue;
            }
            for item in c.items() {
                let v = var(item);
                let clauses = seen.entry(v.clone()).or_default();
                let prior = clauses.iter().find_map(|&pi| {
                    let pc = &d.clauses[pi];
                    let why = if pi == ci && spec::is_map_clause(d.model, &c.name) {
                        Some("a variable may appear only once in a data-mapping clause")
                    } else {
                        conflict(d.model, combined, &pc.name, &c.name)
                    };
                    why.map(|why| (pi, pc, why))
                });
                if clauses.last() != Some(&ci) {
                    clauses.push(ci);
                }
                let Some((pi, pc, why)) = prior else {
                    continue;
                };
                if !reported.insert((v.clone(), ci)) {
                    continue;
                }
                let msg = if pi == ci {
                    format!("`{v}` is listed more than once in `{}`", c.name)
                } else if pc.name == c.name {
                    format!("`{v}` appears in two `{}` clauses", c.name)
                } else {
                    format!("`{v}` appears in both `{}` and `{}`", pc.name, c.name)
                };
                out.push(
                    i,
                    Diagnostic::new(codes::CONFLICTING_CLAUSES, item.name_span, msg)
                        .with_label(format!("in `{}` here", c.name))
                        .with_secondary(pc.span, format!("`{}` clause", pc.name))
                        .with_note(why),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::{assert_codes, run_rule};

    #[test]
    fn conflicting_data_sharing() {
        let src = "void f(int n, double *a, double t, int k) {\n\
            #pragma omp target teams distribute parallel for private(t) reduction(+: t)\n\
            for (int i = 0; i < n; i++) t += a[i];\n\
            #pragma omp parallel for firstprivate(t) lastprivate(t)\n\
            for (int i = 0; i < n; i++) t += a[i];\n\
            #pragma omp target map(tofrom: t) private(t)\n\
            t = 1;\n\
            #pragma omp target teams distribute parallel for map(tofrom: t) reduction(+: t) firstprivate(k)\n\
            for (int i = 0; i < n; i++) t += a[i] + k;\n\
            #pragma acc parallel loop private(k, k) copy(a[0:n])\n\
            for (int i = 0; i < n; i++) a[i] += k;\n\
            #pragma acc parallel copy(k) firstprivate(k)\n\
            { k = 1; }\n\
            }\n";
        assert_codes("conflicting_clauses", src, "E0204", &[2, 6, 10, 12]);
        let got = run_rule("conflicting_clauses", src);
        assert!(got[2].2.contains("listed more than once"), "{got:?}");
    }

    #[test]
    fn an_item_twice_in_one_map_clause() {
        let src = "void f(int n, double *a, int k) {\n\
            #pragma omp target map(to: k, k) map(tofrom: a[0:n])\n\
            a[0] = k;\n\
            #pragma acc parallel copyin(k) copyin(k, n)\n\
            { a[0] = k + n; }\n\
            #pragma omp target map(to: k) map(from: k)\n\
            k = 1;\n\
            }\n";
        assert_codes("conflicting_clauses", src, "E0204", &[2]);
    }
}
