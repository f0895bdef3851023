//! E0202 `clause_once`: clauses the specifications allow at most once.
//!
//! Most clauses that set one property of a construct (`num_threads`,
//! `collapse`, `default`, `schedule`, `num_gangs`, `vector_length`, ...) may
//! appear only once: with two of them the directive means two different
//! things, and compilers disagree on which one wins. The special cases:
//!
//! - OpenMP `if`: at most one per construct, so `if(target: a) if(parallel: b)`
//!   is fine but two `if(target: ...)`, or an `if` without modifier next to any
//!   other `if`, is not;
//! - OpenMP `defaultmap`: at most one per variable category
//!   (`defaultmap(tofrom: scalar) defaultmap(to: aggregate)` is fine), and
//!   one without category or with `all` excludes every other;
//! - OpenACC: clauses that can be specialised per device (`num_gangs`,
//!   `async`, `gang`, `seq`, ...) may appear once before the first
//!   `device_type` and once after each `device_type`.
//!
//! Bad:
//!
//! ```c
//! #pragma omp target teams distribute parallel for num_teams(4) num_teams(8)
//! for (int i = 0; i < n; i++) a[i] += 1;
//! ```
//!
//! Fix: keep one `num_teams` clause. The diagnostic points at the second
//! clause and labels the first.

use super::{Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{Clause, ClauseArgs, Model};
use crate::source::Span;

pub const CODES: &[Code] = &[codes::CLAUSE_REPEATED];

const OMP_ONCE: &[&str] = &[
    "num_threads",
    "default",
    "proc_bind",
    "schedule",
    "collapse",
    "ordered",
    "nowait",
    "dist_schedule",
    "num_teams",
    "thread_limit",
    "device",
    "safelen",
    "simdlen",
    "order",
    "bind",
    "final",
    "priority",
    "grainsize",
    "num_tasks",
    "filter",
    "sizes",
    "full",
    "partial",
    "hint",
    "severity",
    "at",
    "message",
    "atomic_default_mem_order",
    "detach",
    "novariants",
    "nocontext",
    "allocator",
    "align",
    "untied",
    "mergeable",
    "nogroup",
    "inbranch",
    "notinbranch",
    "device_type",
    "indirect",
    "read",
    "write",
    "update",
    "capture",
    "compare",
    "fail",
    "weak",
    "seq_cst",
    "acq_rel",
    "release",
    "acquire",
    "relaxed",
    "otherwise",
    "match",
    "absent",
    "contains",
    "no_openmp",
    "no_openmp_routines",
    "no_parallelism",
    "reverse_offload",
    "unified_address",
    "unified_shared_memory",
    "dynamic_allocators",
    "threads",
    "simd",
];

/// OpenACC clauses allowed once in each device_type group.
const ACC_ONCE_PER_GROUP: &[&str] = &[
    "async",
    "wait",
    "num_gangs",
    "num_workers",
    "vector_length",
    "collapse",
    "gang",
    "worker",
    "vector",
    "seq",
    "independent",
    "auto",
    "tile",
    "bind",
];

/// OpenACC clauses allowed once on the whole directive.
const ACC_ONCE: &[&str] = &[
    "if",
    "self",
    "default",
    "default_async",
    "device_num",
    "finalize",
    "if_present",
    "nohost",
    "read",
    "write",
    "update",
    "capture",
];

/// The key under which a clause counts, or `None` when it may repeat.
fn key(model: Model, c: &Clause, group: usize) -> Option<String> {
    let name = c.name.as_str();
    match model {
        Model::Omp => match name {
            "if" => match &c.args {
                ClauseArgs::Expr {
                    modifier: Some(m), ..
                } => Some(format!("if:{}", m.text)),
                _ => Some("if:".into()),
            },
            "defaultmap" => {
                // `all` is the same slot as no category: every category.
                let category = c
                    .args_list()
                    .get(1)
                    .map(|a| a.value.text.as_str())
                    .filter(|c| *c != "all");
                Some(format!("defaultmap:{}", category.unwrap_or("")))
            }
            _ if OMP_ONCE.contains(&name) => Some(name.to_string()),
            _ => None,
        },
        Model::Acc => {
            if ACC_ONCE_PER_GROUP.contains(&name) {
                Some(format!("{name}#{group}"))
            } else if ACC_ONCE.contains(&name) {
                Some(name.to_string())
            } else {
                None
            }
        }
    }
}

/// Whether the two keys name the same slot (an `if` or `defaultmap` without
/// modifier or category covers every slot).
fn clash(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    for family in ["if:", "defaultmap:"] {
        if let (Some(x), Some(y)) = (a.strip_prefix(family), b.strip_prefix(family)) {
            return x.is_empty() || y.is_empty();
        }
    }
    false
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        let mut group = 0;
        let mut seen: Vec<(String, Span)> = Vec::new();
        for c in &d.clauses {
            if d.model == Model::Acc && matches!(c.name.as_str(), "device_type" | "dtype") {
                group += 1;
                continue;
            }
            let Some(k) = key(d.model, c, group) else {
                continue;
            };
            if let Some((_, first)) = seen.iter().find(|(s, _)| clash(s, &k)) {
                let what = match c.name.as_str() {
                    "if" => "one `if` clause per construct".to_string(),
                    "defaultmap" => "one `defaultmap` clause per variable category".to_string(),
                    n if d.model == Model::Acc && group > 0 => {
                        format!("one `{n}` clause per device_type group")
                    }
                    n => format!("one `{n}` clause"),
                };
                out.push(
                    i,
                    Diagnostic::new(
                        codes::CLAUSE_REPEATED,
                        c.name_span,
                        format!(
                            "`{}` appears more than once on `{}`",
                            c.name,
                            cx.title(i)
                        ),
                    )
                    .with_label("repeated clause")
                    .with_secondary(*first, "first one here")
                    .with_note(format!("the directive takes at most {what}")),
                );
                continue;
            }
            seen.push((k, c.span));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn repeated_clauses() {
        let src = "void f(int n, double *a) {\n\
            #pragma omp target teams distribute parallel for num_teams(4) num_teams(8)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp target teams distribute parallel for if(target: n) if(parallel: n)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp target teams distribute parallel for if(n) if(parallel: n)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma omp target defaultmap(tofrom: scalar) defaultmap(to: aggregate) defaultmap(alloc: scalar)\n\
            a[0] = 1;\n\
            #pragma omp target defaultmap(tofrom: all) defaultmap(to: pointer)\n\
            a[0] = 1;\n\
            }\n";
        assert_codes("clause_once", src, "E0202", &[2, 6, 8, 10]);
    }

    #[test]
    fn openacc_device_type_groups_count_separately() {
        let src = "void f(int n, double *a) {\n\
            #pragma acc parallel loop num_gangs(4) device_type(nvidia) num_gangs(8) device_type(host) num_gangs(1)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            #pragma acc parallel loop vector_length(32) vector_length(64) if(n) if(n > 1)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            }\n";
        assert_codes("clause_once", src, "E0202", &[4, 4]);
    }
}
