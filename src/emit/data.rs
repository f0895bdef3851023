//! The host code of data constructs: present-table calls from
//! templates/p2c_host.cuh, in place of the pragma (and, for a structured
//! construct, after its statement).

use super::namer::Namer;
use crate::ir::data::{AccQueue, DataItem, DataKind, DataOp, RangeExpr};
use std::fmt::Write;

/// The text that replaces the pragma, and for a structured construct the
/// text inserted after its statement.
pub struct DataText {
    pub open: String,
    pub close: Option<String>,
}

fn escape(s: &str) -> String {
    crate::source::literal::c_string(s)
}

/// The `p2c_range` of an item, as a host expression.
fn range(item: &DataItem, where_: &str) -> String {
    let n = &item.name;
    match &item.range {
        RangeExpr::Object => format!("p2c_object(&{n}, \"{n}\")"),
        RangeExpr::Section { lo, len } => {
            format!("p2c_section({n}, {lo}, {len}, {where_}, \"{n}\")")
        }
        RangeExpr::Section2 { lo, len, lo2, len2 } => {
            format!("p2c_section2({n}, {lo}, {len}, {lo2}, {len2}, {where_}, \"{n}\")")
        }
        // Nothing is mapped (attach / detach only): an empty range.
        RangeExpr::Pointer => "p2c_range()".to_string(),
    }
}

/// The entries of a construct's items, each with its range (an
/// expression): `p2c_enter` of every mapped range, then the attach action
/// of every OpenACC pointer reference and `attach` item, so that a
/// structure and the sections its members point to may come in any order.
fn enter_lines(items: &[(&DataItem, String)], refs: &str, w: &str) -> String {
    let mut o = String::new();
    for (it, r) in items {
        if it.range != RangeExpr::Pointer {
            let _ = writeln!(o, "p2c_enter({r}, {}, {refs}, {w});", it.kind);
        }
    }
    for (it, _) in items {
        let n = &it.name;
        match &it.range {
            RangeExpr::Pointer => {
                let _ = writeln!(o, "p2c_attach_ptr(&{n}, {n}, {w}, \"{n}\");");
            }
            RangeExpr::Section { lo, .. } if it.attach => {
                let _ = writeln!(o, "p2c_attach_member(&{n}, {n} + ({lo}), {w}, \"{n}\");");
            }
            _ => {}
        }
    }
    o
}

/// The exits of a construct's items, in the order given: first the detach
/// action of every OpenACC pointer reference and `detach` item, then
/// `p2c_exit` of every mapped range.
fn exit_lines(items: &[(&DataItem, String)], refs: &str, w: &str) -> String {
    let mut o = String::new();
    for (it, _) in items {
        let (n, k) = (&it.name, &it.kind);
        if it.range == RangeExpr::Pointer {
            let _ = writeln!(o, "p2c_detach_ptr(&{n}, {k}, {w}, \"{n}\");");
        } else if it.attach {
            let _ = writeln!(o, "p2c_detach_member(&{n}, {k}, {w}, \"{n}\");");
        }
    }
    for (it, r) in items {
        if it.range != RangeExpr::Pointer {
            let _ = writeln!(o, "p2c_exit({r}, {}, {refs}, {w});", it.kind);
        }
    }
    o
}

/// `text`, each line indented by `ind` and ended.
fn indented(text: &str, ind: &str) -> String {
    text.lines().map(|l| format!("{ind}{l}\n")).collect()
}

/// A name for generated identifiers: the item's text with every character
/// that is not an identifier's replaced (`s.p` -> `s_p`).
fn stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The condition under which the construct acts: `if` and `device` clauses.
fn condition(op: &DataOp, where_: &str) -> Option<String> {
    let dev = op
        .device
        .as_ref()
        .map(|d| format!("p2c_device_arg((long long)({d}), {where_})"));
    match (&op.if_cond, dev) {
        (None, None) => None,
        (Some(c), None) => Some(format!("({c})")),
        (None, Some(d)) => Some(d),
        (Some(c), Some(d)) => Some(format!("({c}) && {d}")),
    }
}

/// `acc set default_async` (one call), `acc init` ... without calls: the
/// data constructs that touch no present-table entry (#21).
fn no_table_text(op: &DataOp) -> Option<DataText> {
    if let (DataKind::SetDefaultAsync, Some(q)) = (op.kind, &op.default_async) {
        let call = format!("p2c_acc_set_default_async((int)({q}));");
        let call = match &op.if_cond {
            Some(c) => format!("if ({c})\n    {call}"),
            None => call,
        };
        return Some(DataText {
            open: format!(
                "/* pragma2cuda: `{}` */\n{call}",
                op.pragma_text.replace("*/", "* /")
            ),
            close: None,
        });
    }
    if op.kind == DataKind::Runtime && op.calls.is_empty() {
        let mut o = format!("{{ /* pragma2cuda: `{}` */", op.pragma_text);
        for n in &op.notes {
            let _ = write!(o, "\n    /* {} */", n.replace("*/", "* /"));
        }
        o.push_str("\n}");
        return Some(DataText {
            open: o,
            close: None,
        });
    }
    None
}

/// A structured data construct: the entries (on its queue, then waited
/// for), and the exits after the statement.
fn region_text(
    op: &DataOp,
    w: &str,
    cond: Option<String>,
    queue: Option<(&AccQueue, String)>,
    namer: &mut Namer,
    mut o: String,
) -> DataText {
    let ind = "    ";
    let w = &w.to_string();
    let on = cond.as_ref().map(|c| {
        let on = namer.fresh("p2c_on");
        let _ = writeln!(o, "{ind}const int {on} = {c};");
        on
    });
    let ranges: Vec<String> = op
        .items
        .iter()
        .map(|it| namer.fresh(&format!("p2c_range_{}", stem(&it.name))))
        .collect();
    for (it, r) in op.items.iter().zip(&ranges) {
        if it.range == RangeExpr::Pointer {
            continue; // nothing mapped: no range
        }
        let value = match &on {
            Some(on) => format!("{on} ? {} : p2c_range()", range(it, w)),
            None => range(it, w),
        };
        let _ = writeln!(o, "{ind}const p2c_range {r} = {value};");
    }
    let (inner, guard_open, guard_close) = match &on {
        Some(on) => (
            format!("{ind}{ind}"),
            format!("{ind}if ({on}) {{\n"),
            format!("{ind}}}\n"),
        ),
        None => (ind.to_string(), String::new(), String::new()),
    };
    if let Some((q, name)) = &queue {
        o.push_str(&super::queue::declare(q, name, w, ind));
    }
    o.push_str(&guard_open);
    if let Some((q, name)) = &queue {
        o.push_str(&super::queue::waits(q, name, &inner));
    }
    let pairs: Vec<(&DataItem, String)> = op.items.iter().zip(ranges.iter().cloned()).collect();
    o.push_str(&indented(&enter_lines(&pairs, op.refs, w), &inner));
    o.push_str(&guard_close);
    if let Some((_, name)) = &queue {
        let _ = writeln!(
                o,
                "{ind}{name}.pause(); /* the entries complete; the statement's constructs choose their own queues */"
            );
    }
    o.push_str(&use_device_open(op, w, on.as_deref(), namer));
    // The statement follows; the close text comes after it.
    let o = o.trim_end_matches('\n').to_string();
    let mut c = String::new();
    c.push('\n');
    if !op.use_device.is_empty() {
        c.push_str("}\n");
    }
    if let Some((_, name)) = &queue {
        let _ = writeln!(c, "{ind}{name}.resume();");
    }
    c.push_str(&guard_open);
    let reversed: Vec<(&DataItem, String)> = pairs.into_iter().rev().collect();
    c.push_str(&indented(&exit_lines(&reversed, op.refs, w), &inner));
    c.push_str(&guard_close);
    c.push('}');
    DataText {
        open: o,
        close: Some(c),
    }
}

/// `use_device_ptr` / `use_device_addr` / `use_device`: each name looked
/// up in the present table before the statement, then shadowed in a block
/// around it (closed by the close text): a pointer by a local holding the
/// device address, a variable by a reference to its device copy. Under a
/// false `if` (`on`), the host addresses.
fn use_device_open(op: &DataOp, w: &str, on: Option<&str>, namer: &mut Namer) -> String {
    let ind = "    ";
    if op.use_device.is_empty() {
        return String::new();
    }
    let mut o = String::new();
    let mut locals = Vec::new();
    for u in &op.use_device {
        let l = namer.fresh(&format!("p2c_ud_{}", u.name));
        let host = if u.addr {
            format!("&{}", u.name)
        } else {
            u.name.clone()
        };
        let look = format!(
            "p2c_use_device({host}, {}, {w}, \"{}\")",
            if u.absent_ok {
                "P2C_ABSENT_IS_SKIPPED"
            } else {
                "P2C_ABSENT_IS_ERROR"
            },
            u.name
        );
        let value = match on {
            Some(on) => format!("{on} ? {look} : {host}"),
            None => look,
        };
        let _ = writeln!(o, "{ind}auto {l} = {value};");
        locals.push(l);
    }
    let _ = writeln!(o, "{ind}{{");
    for (u, l) in op.use_device.iter().zip(&locals) {
        let n = &u.name;
        if u.addr {
            let _ = writeln!(o, "{ind}auto &{n} = *{l}; /* the device copy of `{n}` */");
        } else {
            let _ = writeln!(o, "{ind}auto {n} = {l}; /* a device address */");
        }
        let _ = writeln!(o, "{ind}(void){n};");
    }
    o
}

/// `acc declare` in a function: a scope object whose destructor unmaps.
fn declare_scope_text(op: &DataOp, file_name: &str, namer: &mut Namer) -> DataText {
    let scope = namer.fresh("p2c_declare");
    let mut o = format!(
        "/* pragma2cuda: `{}`: mapped until the function returns */\n",
        op.pragma_text
    );
    let _ = write!(
        o,
        "p2c_declare_scope {scope}(\"{}:{}\");",
        escape(file_name),
        op.line
    );
    for it in &op.items {
        let where_ = format!("{scope}.where");
        let _ = write!(o, "\n{scope}.add({}, {});", range(it, &where_), it.kind);
    }
    DataText {
        open: o,
        close: None,
    }
}

pub fn emit_data(op: &DataOp, file_name: &str, namer: &mut Namer) -> DataText {
    let ind = "    ";
    if op.kind == DataKind::DeclareScope {
        return declare_scope_text(op, file_name, namer);
    }
    if let Some(t) = no_table_text(op) {
        return t;
    }
    let w = namer.fresh("p2c_where");
    let queue = op.acc_queue.as_ref().map(|q| (q, namer.fresh("p2c_queue")));
    let mut o = String::new();
    if let Some(t) = &op.task_wait {
        let _ = writeln!(
            o,
            "{t} /* depend: the tasks this construct depends on complete first */"
        );
    }
    let here = format!("\"{}:{}\"", escape(file_name), op.line);
    if let Some(t) = op
        .omp_task
        .as_ref()
        .and_then(|t| super::target_task::before_undeferred(t, &here))
    {
        let _ = writeln!(o, "{t}");
    }
    let what = match op.kind {
        DataKind::Region if op.items.is_empty() && !op.use_device.is_empty() => {
            ": the names below denote device data until the end of the statement"
        }
        DataKind::Region => ": the data below is mapped until the end of the statement",
        _ => "",
    };
    let _ = writeln!(o, "{{ /* pragma2cuda: `{}`{what} */", op.pragma_text);
    // Nothing mapped and no runtime call (only `deviceptr` items): no place
    // is needed.
    if !op.items.is_empty()
        || op.omp_task.as_ref().is_some_and(|t| t.deferred)
        || op.device.is_some()
        || !op.calls.is_empty()
        || !op.use_device.is_empty()
        || queue.is_some()
    {
        let _ = writeln!(
            o,
            "{ind}const char *{w} = \"{}:{}\";",
            escape(file_name),
            op.line
        );
    }
    for n in &op.notes {
        let _ = writeln!(o, "{ind}/* {} */", n.replace("*/", "* /"));
    }
    let cond = condition(op, &w);
    match op.kind {
        DataKind::Region => region_text(op, &w, cond, queue, namer, o),
        _ => {
            let inner = if cond.is_some() {
                format!("{ind}{ind}")
            } else {
                ind.to_string()
            };
            if let Some(c) = &cond {
                let _ = writeln!(o, "{ind}if ({c}) {{");
            }
            if let Some((q, name)) = &queue {
                o.push_str(&super::queue::open(q, name, &w, &inner));
            }
            if let Some(t) = op.omp_task.as_ref().filter(|t| t.deferred) {
                o.push_str(&super::target_task::open_deferred(t, &w, &inner));
            }
            let pairs: Vec<(&DataItem, String)> =
                op.items.iter().map(|it| (it, range(it, &w))).collect();
            match op.kind {
                DataKind::Enter => o.push_str(&indented(&enter_lines(&pairs, op.refs, &w), &inner)),
                DataKind::Exit => o.push_str(&indented(&exit_lines(&pairs, op.refs, &w), &inner)),
                _ => {
                    for (it, r) in &pairs {
                        let dir = if it.to_device {
                            "P2C_TO_DEVICE"
                        } else {
                            "P2C_TO_HOST"
                        };
                        let absent = if it.absent_ok {
                            "P2C_ABSENT_IS_SKIPPED"
                        } else {
                            "P2C_ABSENT_IS_ERROR"
                        };
                        let _ = writeln!(o, "{inner}p2c_update({r}, {dir}, {absent}, {w});");
                    }
                }
            }
            for call in &op.calls {
                let head = call.strip_suffix(')').unwrap_or(call);
                let _ = writeln!(o, "{inner}{head}, {w});");
            }
            if cond.is_some() {
                let _ = writeln!(o, "{ind}}}");
            }
            o.push('}');
            DataText {
                open: o,
                close: None,
            }
        }
    }
}
