//! E0215 `required_clause`: directives that mean nothing without a clause.
//!
//! A few directives exist only to carry their clauses, and the specifications
//! require at least one (or exactly one) of a set:
//!
//! - OpenMP: `target update` needs `to` or `from`; `target enter data` and
//!   `target exit data` need `map`; `target data` needs `map`,
//!   `use_device_ptr` or `use_device_addr`; `tile` needs `sizes`; `interop`
//!   needs `init`, `use` or `destroy`; `requires` needs a requirement;
//!   `cancel` and `cancellation point` need exactly one of `parallel`,
//!   `sections`, `for`, `taskgroup`; `scan` exactly one of `inclusive`,
//!   `exclusive`; `depobj` exactly one of `depend`, `destroy`, `update`;
//! - OpenACC: `enter data` needs `copyin`, `create` or `attach`; `exit data`
//!   needs `copyout`, `delete` or `detach`; `data` needs a data clause or
//!   `default`; `update` needs `self`, `host` or `device`; `host_data` needs
//!   `use_device`; `declare` needs a clause; `set` needs `default_async`,
//!   `device_num` or `device_type`; `routine` needs `gang`, `worker`,
//!   `vector` or `seq`.
//!
//! Bad:
//!
//! ```c
//! #pragma omp target update
//! ```
//!
//! Fix: say what to copy and where, `#pragma omp target update from(a[0:n])`.

use super::{Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::Model;

pub const CODES: &[Code] = &[codes::MISSING_CLAUSE];

/// (model, directive, clauses, exactly one?)
const REQUIRED: &[(Model, &str, &[&str], bool)] = &[
    (Model::Omp, "target update", &["to", "from"], false),
    (Model::Omp, "target enter data", &["map"], false),
    (Model::Omp, "target exit data", &["map"], false),
    (
        Model::Omp,
        "target data",
        &["map", "use_device_ptr", "use_device_addr"],
        false,
    ),
    (Model::Omp, "tile", &["sizes"], false),
    (Model::Omp, "interop", &["init", "use", "destroy"], false),
    (
        Model::Omp,
        "requires",
        &[
            "reverse_offload",
            "unified_address",
            "unified_shared_memory",
            "atomic_default_mem_order",
            "dynamic_allocators",
        ],
        false,
    ),
    (
        Model::Omp,
        "cancel",
        &["parallel", "sections", "for", "taskgroup"],
        true,
    ),
    (
        Model::Omp,
        "cancellation point",
        &["parallel", "sections", "for", "taskgroup"],
        true,
    ),
    (Model::Omp, "scan", &["inclusive", "exclusive"], true),
    (Model::Omp, "depobj", &["depend", "destroy", "update"], true),
    (
        Model::Acc,
        "enter data",
        &[
            "copyin",
            "create",
            "attach",
            "pcopyin",
            "pcreate",
            "present_or_copyin",
            "present_or_create",
        ],
        false,
    ),
    (
        Model::Acc,
        "exit data",
        &["copyout", "delete", "detach", "pcopyout", "present_or_copyout"],
        false,
    ),
    (
        Model::Acc,
        "data",
        &[
            "copy",
            "copyin",
            "copyout",
            "create",
            "no_create",
            "present",
            "deviceptr",
            "attach",
            "default",
            "pcopy",
            "pcopyin",
            "pcopyout",
            "pcreate",
            "present_or_copy",
            "present_or_copyin",
            "present_or_copyout",
            "present_or_create",
        ],
        false,
    ),
    (Model::Acc, "update", &["self", "host", "device"], false),
    (Model::Acc, "host_data", &["use_device"], false),
    (
        Model::Acc,
        "declare",
        &[
            "copy",
            "copyin",
            "copyout",
            "create",
            "present",
            "deviceptr",
            "device_resident",
            "link",
            "pcopy",
            "pcopyin",
            "pcopyout",
            "pcreate",
            "present_or_copy",
            "present_or_copyin",
            "present_or_copyout",
            "present_or_create",
        ],
        false,
    ),
    (
        Model::Acc,
        "set",
        &["default_async", "device_num", "device_type", "dtype"],
        false,
    ),
    (Model::Acc, "routine", &["gang", "worker", "vector", "seq"], false),
];

fn list(names: &[&str]) -> String {
    let shown: Vec<String> = names
        .iter()
        .filter(|n| !n.starts_with("pcopy") && !n.starts_with("pcreate") && !n.starts_with("present_or"))
        .map(|n| format!("`{n}`"))
        .collect();
    match shown.len() {
        0 => String::new(),
        1 => shown[0].clone(),
        k => format!("{} or {}", shown[..k - 1].join(", "), shown[k - 1]),
    }
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if cx.malformed(i) {
            // A clause the parser dropped may be the one missing here.
            continue;
        }
        let Some((_, _, names, exactly)) = REQUIRED
            .iter()
            .find(|(m, n, ..)| *m == d.model && *n == d.name)
        else {
            continue;
        };
        let present: Vec<_> = d
            .clauses
            .iter()
            .filter(|c| names.contains(&c.name.as_str()))
            .collect();
        let title = cx.title(i);
        if present.is_empty() {
            out.push(
                i,
                Diagnostic::new(
                    codes::MISSING_CLAUSE,
                    d.name_span,
                    if *exactly {
                        format!("`{title}` needs exactly one of {}", list(names))
                    } else {
                        format!("`{title}` needs a {} clause", list(names))
                    },
                )
                .with_label("clause missing"),
            );
        } else if *exactly && present.len() > 1 {
            out.push(
                i,
                Diagnostic::new(
                    codes::MISSING_CLAUSE,
                    present[1].name_span,
                    format!("`{title}` takes exactly one of {}", list(names)),
                )
                .with_label("second one")
                .with_secondary(present[0].span, "first one"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn a_clause_the_parser_dropped_is_not_reported_missing() {
        let src = "void f(int n, double *a) {\n#pragma omp target update too(a[0:n])\n}\n";
        let file = crate::source::SourceFile::new("t.c", src);
        let t = crate::translate(&file, &crate::Options::default());
        let codes: Vec<&str> = t.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["E0103"]);
    }

    #[test]
    fn missing_and_doubled_clauses() {
        let src = "void f(int n, double *a) {\n\
            #pragma omp target update\n\
            #pragma omp target update from(a[0:n])\n\
            #pragma acc enter data if(n)\n\
            #pragma acc update self(a[0:n])\n\
            #pragma omp cancel parallel for\n\
            #pragma acc data\n\
            { a[0] = 1; }\n\
            }\n";
        assert_codes("required_clause", src, "E0215", &[2, 4, 6, 7]);
    }
}
