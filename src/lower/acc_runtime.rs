//! OpenACC `init`, `shutdown` and `set` (OpenACC 3.3, 2.14): executable
//! directives that are runtime routine calls on the host. Each becomes the
//! calls of templates/p2c_runtime.cuh in place of its pragma, under its `if`
//! clause: `init` calls `acc_init_device(num, type)` and `shutdown`
//! `acc_shutdown_device(num, type)` for each listed device type;
//! `set device_type(t)` calls `acc_set_device_type(t)` and `set
//! device_num(n)` `acc_set_device_num(n, t)`.
//!
//! The program has two device types, the host and one NVIDIA GPU. Other
//! names (`multicore`, `radeon`, ...) name no available device: initialising,
//! shutting down or selecting one is implementation-defined (OpenACC 3.3,
//! 3.2.7 / 3.2.8 / 3.2.2) and here does nothing; the plan and a comment in
//! the output say so. `set device_type(host)` makes the host the current
//! device (acc-current-device-type-var, OpenACC 3.3, 2.14.3): the runtime
//! keeps it (`p2c_acc_host_selected`), `acc_get_device_type()` answers
//! `acc_device_host`, and since compute constructs and data clauses run on
//! the GPU only, one reached while the host is selected stops the program
//! with a runtime error instead of running on the GPU (until `set
//! device_type(nvidia|default)`). `device_type(*)` is refused (E0901).

use crate::diag::{codes, Diagnostic};
use crate::directives::{ClauseArgs, Directive};
use crate::front::Attached;
use crate::ir::data::{DataKind, DataOp};
use crate::source::SourceFile;

/// A device type named in a `device_type` clause, as the program knows it.
enum DevType {
    /// An `acc_device_t` constant of the runtime.
    Known(&'static str),
    /// A name of no device available to the translated program.
    Absent(String),
}

fn dev_type(name: &str) -> DevType {
    match name {
        "host" => DevType::Known("acc_device_host"),
        "nvidia" => DevType::Known("acc_device_nvidia"),
        "default" => DevType::Known("acc_device_default"),
        other => DevType::Absent(other.to_string()),
    }
}

/// The names in the `device_type` / `dtype` clause (`*`: every type).
fn listed_types(d: &Directive) -> Option<Vec<String>> {
    let c = d.clause("device_type").or_else(|| d.clause("dtype"))?;
    let names: Vec<String> = match &c.args {
        ClauseArgs::Args(args) => args
            .iter()
            .map(|a| a.value.text.trim().to_string())
            .collect(),
        ClauseArgs::Expr { expr, .. } => vec![expr.text.trim().to_string()],
        ClauseArgs::Keyword(w) => vec![w.text.clone()],
        _ => vec![],
    };
    Some(names)
}

fn refuse(d: &Directive, span: crate::source::Span, what: &str, diags: &mut Vec<Diagnostic>) {
    diags.push(
        Diagnostic::new(
            codes::NOT_SUPPORTED,
            span,
            format!("{what} on `acc {}` is not supported yet", d.name),
        )
        .with_label("not lowered yet"),
    );
}

/// The calls and notes of `init` / `shutdown` (`routine` is the runtime's
/// `p2c_acc_init_device` or `p2c_acc_shutdown_device`).
fn per_type(
    d: &Directive,
    routine: &str,
    num: &str,
    calls: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    let names = listed_types(d).unwrap_or_else(|| vec!["default".into()]);
    let names: Vec<String> = if names.iter().any(|n| n == "*") {
        vec!["nvidia".into(), "host".into()]
    } else {
        names
    };
    for n in names {
        match dev_type(&n) {
            DevType::Known(k) => calls.push(format!("{routine}({num}, {k})")),
            DevType::Absent(n) => notes.push(format!(
                "device type `{n}` names no device available to this program: nothing is done for it (implementation-defined)"
            )),
        }
    }
}

/// The plan's note on `set device_type(host)`.
const HOST_SELECTED: &str = "the host device becomes current: acc_get_device_type() returns acc_device_host, and a compute construct or data clause run before the GPU is selected again stops the program with a runtime error (compute constructs run on the GPU only)";

/// The calls and notes of `set`; None after a refusal.
fn set_calls(
    d: &Directive,
    num: Option<&str>,
    calls: &mut Vec<String>,
    notes: &mut Vec<String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    // `default_async` alone is `DataKind::SetDefaultAsync`; beside other
    // clauses it is one more call (every operation is synchronous, #21).
    if let Some(q) = d.clause("default_async").and_then(|c| c.expr()) {
        calls.push(format!("p2c_acc_set_default_async_at((int)({}))", q.text));
    }
    let mut ty = "acc_device_default";
    if let Some(names) = listed_types(d) {
        let c = d.clause("device_type").or_else(|| d.clause("dtype"))?;
        if names.len() != 1 {
            refuse(
                d,
                c.span,
                "a `device_type` clause with other than one device type",
                diags,
            );
            return None;
        }
        match dev_type(&names[0]) {
            DevType::Known(k @ "acc_device_host") => {
                ty = k;
                calls.push(format!("p2c_acc_set_device_type_at({k})"));
                notes.push(HOST_SELECTED.into());
            }
            DevType::Known(k) => {
                ty = k;
                calls.push(format!("p2c_acc_set_device_type_at({k})"));
            }
            DevType::Absent(n) => {
                if n == "*" {
                    refuse(d, c.span, "`device_type(*)`", diags);
                    return None;
                }
                notes.push(format!(
                    "device type `{n}` names no device available to this program: the current device type is kept (implementation-defined)"
                ));
                if num.is_some() {
                    notes.push("device_num applies to that device type: nothing is done".into());
                    return Some(());
                }
            }
        }
    }
    if let Some(n) = num {
        calls.push(format!("p2c_acc_set_device_num_at({n}, {ty})"));
    }
    Some(())
}

/// The `DataOp` of an `init`, `shutdown` or `set` directive.
pub fn build(file: &SourceFile, at: &Attached, diags: &mut Vec<Diagnostic>) -> Option<DataOp> {
    let d = &at.directive;
    let Some(function) = at.function.as_ref() else {
        diags.push(
            Diagnostic::new(
                codes::BAD_NESTING,
                d.name_span,
                format!(
                    "`acc {}` is executable: it must be inside a function",
                    d.name
                ),
            )
            .with_label("at file scope"),
        );
        return None;
    };
    let num = d
        .clause("device_num")
        .and_then(|c| c.expr())
        .map(|e| format!("(int)({})", e.text.trim()));
    let mut calls = Vec::new();
    let mut notes = Vec::new();
    match d.name.as_str() {
        "init" => per_type(
            d,
            "p2c_acc_init_device",
            num.as_deref().unwrap_or("-1"),
            &mut calls,
            &mut notes,
        ),
        "shutdown" => per_type(
            d,
            "p2c_acc_shutdown_device",
            num.as_deref().unwrap_or("-1"),
            &mut calls,
            &mut notes,
        ),
        _ => set_calls(d, num.as_deref(), &mut calls, &mut notes, diags)?,
    }
    Some(DataOp {
        kind: DataKind::Runtime,
        model: d.model,
        construct: d.name.clone(),
        pragma_text: crate::source::pragma_text::pragma_one_line(file.slice(d.span)),
        pragma: d.span,
        stmt: None,
        function: function.0.clone(),
        line: file.line_of(d.span.start),
        items: vec![],
        if_cond: d
            .clause("if")
            .and_then(|c| c.expr())
            .map(|e| e.text.clone()),
        device: None,
        task_wait: None,
        omp_task: None,
        default_async: None,
        acc_queue: None,
        refs: "P2C_REF_STRUCTURED",
        notes,
        device_ptrs: vec![],
        calls,
        use_device: vec![],
    })
}
