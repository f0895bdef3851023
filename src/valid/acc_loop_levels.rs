//! E0210 `acc_loop_levels`: OpenACC gang, worker and vector loops nest in
//! that order.
//!
//! OpenACC has three levels of parallelism, outermost first: gang, worker,
//! vector. Within one compute construct a loop may only be partitioned at a
//! level inside the levels of the loops around it:
//!
//! - a loop with `vector` may not contain a `gang`, `worker` or `vector` loop;
//! - a loop with `worker` may not contain a `gang` or `worker` loop;
//! - a loop with `gang` may not contain a `gang` loop (in a `parallel` or
//!   `serial` construct, a `gang(dim: e)` loop may sit inside a
//!   `gang(dim: d)` loop when `e < d`; in `kernels` never).
//!
//! A `seq` loop partitions nothing and may contain anything. Combined
//! directives count as loops (`parallel loop gang vector`).
//!
//! Bad:
//!
//! ```c
//! #pragma acc parallel loop vector
//! for (int i = 0; i < n; i++) {
//! #pragma acc loop gang
//!     for (int j = 0; j < m; j++) a[i][j] = 0;
//! }
//! ```
//!
//! Fix: swap the levels (`gang` outside, `vector` inside).

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{Clause, Directive, Model};
use crate::sema::loops::int_literal;

pub const CODES: &[Code] = &[codes::ACC_LOOP_LEVEL];

fn level<'d>(d: &'d Directive, name: &str) -> Option<&'d Clause> {
    if d.clause("seq").is_some() {
        return None;
    }
    d.clause(name)
}

fn gang_dim(c: &Clause) -> i128 {
    c.named_arg("dim")
        .and_then(|e| int_literal(&e.text))
        .unwrap_or(1)
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if d.model != Model::Acc || !spec::leaves_of(d).contains(&"loop") {
            continue;
        }
        let mine: Vec<&Clause> = ["gang", "worker", "vector"]
            .iter()
            .filter_map(|n| level(d, n))
            .collect();
        if mine.is_empty() || spec::is_acc_compute(d) {
            // A combined construct starts a new compute region.
            continue;
        }
        let mut kernels = false;
        let mut outer_loops = Vec::new();
        for j in cx.ancestors(i) {
            let a = cx.directive(j);
            if a.model != Model::Acc {
                continue;
            }
            if spec::leaves_of(a).contains(&"loop") {
                outer_loops.push(j);
            }
            if spec::is_acc_compute(a) {
                kernels = spec::leaves_of(a).contains(&"kernels");
                break;
            }
        }
        'outer: for j in outer_loops {
            let a = cx.directive(j);
            for inner in &mine {
                let blocking = match inner.name.as_str() {
                    "gang" => ["vector", "worker"]
                        .iter()
                        .find_map(|n| level(a, n))
                        .or_else(|| {
                            level(a, "gang").filter(|g| kernels || gang_dim(inner) >= gang_dim(g))
                        }),
                    "worker" => level(a, "vector").or_else(|| level(a, "worker")),
                    _ => level(a, "vector"),
                };
                if let Some(outer) = blocking {
                    out.push(
                        i,
                        Diagnostic::new(
                            codes::ACC_LOOP_LEVEL,
                            inner.name_span,
                            format!(
                                "a `{}` loop may not be inside a `{}` loop",
                                inner.name, outer.name
                            ),
                        )
                        .with_label(format!("{} loop", inner.name))
                        .with_secondary(outer.span, format!("enclosing {} loop", outer.name))
                        .with_note("levels nest as gang, then worker, then vector"),
                    );
                    break 'outer;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn level_order() {
        let src = "void f(int n, double (*a)[8]) {\n\
            #pragma acc parallel loop vector\n\
            for (int i = 0; i < n; i++) {\n\
            #pragma acc loop gang\n\
            for (int j = 0; j < 8; j++) a[i][j] = 0;\n\
            }\n\
            #pragma acc parallel loop gang\n\
            for (int i = 0; i < n; i++) {\n\
            #pragma acc loop worker\n\
            for (int j = 0; j < 8; j++) {\n\
            #pragma acc loop vector\n\
            for (int k = 0; k < 8; k++) a[i][j] += k;\n\
            #pragma acc loop worker\n\
            for (int k = 0; k < 8; k++) a[i][j] += k;\n\
            }\n\
            }\n\
            #pragma acc parallel\n\
            {\n\
            #pragma acc loop gang(dim: 2)\n\
            for (int i = 0; i < n; i++) {\n\
            #pragma acc loop gang\n\
            for (int j = 0; j < 8; j++) a[i][j] = 0;\n\
            #pragma acc loop seq\n\
            for (int j = 0; j < 8; j++) a[i][j] = 0;\n\
            }\n\
            }\n\
            #pragma acc kernels\n\
            {\n\
            #pragma acc loop gang\n\
            for (int i = 0; i < n; i++) {\n\
            #pragma acc loop gang\n\
            for (int j = 0; j < 8; j++) a[i][j] = 0;\n\
            }\n\
            }\n\
            }\n";
        assert_codes("acc_loop_levels", src, "E0210", &[4, 13, 31]);
    }
}
