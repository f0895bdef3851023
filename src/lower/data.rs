//! Data constructs: `target data`, `target enter/exit data`, `target update`
//! and OpenACC's `data`, `enter/exit data`, `update`, and `declare` inside a
//! function, lowered to operations on the present table (templates/p2c_host.cuh).
//!
//! A structured construct (`target data`, `acc data`) maps its list on entry
//! and unmaps it after its statement, taking a structured reference; the
//! regions nested in it find the data present, take a reference of their own
//! and copy nothing. enter/exit data take and drop dynamic references
//! (OpenACC's dynamic count; OpenMP's single count). Every item's host range
//! is computed once, on entry, so the exit uses the bounds the entry saw.

use crate::diag::{codes, Diagnostic};
use crate::directives::{Clause, ClauseArgs, Directive, ListItem, Model, Section};
use crate::front::{Attached, CTree};
use crate::ir::data::{DataItem, DataKind, DataOp, RangeExpr, UseDevice};
use crate::sema::sharing::check_sections;
use crate::sema::{symbols, Symbol};
use crate::source::{SourceFile, Span};

fn not_supported(c: &Clause, d: &Directive, diags: &mut Vec<Diagnostic>) {
    diags.push(
        Diagnostic::new(
            codes::NOT_SUPPORTED,
            c.name_span,
            format!(
                "clause `{}` on `{} {}` is not supported yet",
                c.name,
                d.model.as_str(),
                d.name
            ),
        )
        .with_label("not lowered yet"),
    );
}

/// Clauses read apart: OpenMP `nowait` and `depend` make the construct a
/// target task (`omp_task`, `lower::target_tasks`), OpenACC `async` /
/// `wait` put it on a queue (`acc_queue`).
fn synchronous_clause(model: Model, name: &str) -> bool {
    model == Model::Omp && matches!(name, "nowait" | "depend")
}

/// The map type and modifiers of an OpenMP map / motion clause.
fn omp_map_kind(
    d: &Directive,
    kind: DataKind,
    c: &Clause,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    let mut ty: Option<&str> = None;
    let mut flags = Vec::new();
    for m in c.modifiers() {
        match m.text.as_str() {
            t @ ("to" | "from" | "tofrom" | "alloc" | "release" | "delete") => ty = Some(t),
            "always" => flags.push("P2C_MAP_ALWAYS"),
            "present" => flags.push("P2C_MAP_MUST_BE_PRESENT"),
            "close" => {}
            other => {
                diags.push(
                    Diagnostic::new(
                        codes::NOT_SUPPORTED,
                        m.span,
                        format!("map modifier `{other}` is not supported yet"),
                    )
                    .with_label("not lowered yet"),
                );
                return None;
            }
        }
    }
    let ty = ty.unwrap_or(match kind {
        DataKind::Enter => "to",
        DataKind::Exit => "from",
        _ => "tofrom",
    });
    let allowed: &[&str] = match kind {
        DataKind::Enter => &["to", "alloc"],
        DataKind::Exit => &["from", "release", "delete"],
        _ => &["to", "from", "tofrom", "alloc"],
    };
    if !allowed.contains(&ty) {
        let span = c
            .modifiers()
            .iter()
            .find(|m| m.text == ty)
            .map(|m| m.span)
            .unwrap_or(c.span);
        diags.push(
            Diagnostic::new(
                codes::BAD_CLAUSE_ARG,
                span,
                format!("map type `{ty}` is not allowed on `omp {}`", d.name),
            )
            .with_label("map type")
            .with_note(format!("allowed here: {}", allowed.join(", "))),
        );
        return None;
    }
    let base = match ty {
        "to" => "P2C_MAP_TO",
        "from" => "P2C_MAP_FROM",
        "alloc" => "P2C_MAP_ALLOC",
        "release" => "P2C_MAP_RELEASE",
        "delete" => "P2C_MAP_DELETE",
        _ => "P2C_MAP_TOFROM",
    };
    Some(join_kind(base, &flags))
}

/// One range in two data clauses of a structured construct (`create(zero:
/// b) copyout(b)`): one item whose transfers are the union of both and whose
/// flags are those of either (as `sema::map_merge` does for compute
/// constructs). None when one is not a plain transfer kind (present,
/// no_create): those stay two items.
fn merged_kind(a: &str, b: &str) -> Option<String> {
    let dirs = |k: &str| -> Option<((bool, bool), Vec<String>)> {
        let mut parts = k.split(" | ").map(str::trim);
        let d = match parts.next()? {
            "P2C_MAP_ALLOC" => (false, false),
            "P2C_MAP_TO" => (true, false),
            "P2C_MAP_FROM" => (false, true),
            "P2C_MAP_TOFROM" => (true, true),
            _ => return None,
        };
        Some((d, parts.map(String::from).collect()))
    };
    let ((t1, f1), mut flags) = dirs(a)?;
    let ((t2, f2), more) = dirs(b)?;
    for f in more {
        if !flags.contains(&f) {
            flags.push(f);
        }
    }
    let base = match (t1 || t2, f1 || f2) {
        (false, false) => "P2C_MAP_ALLOC",
        (true, false) => "P2C_MAP_TO",
        (false, true) => "P2C_MAP_FROM",
        (true, true) => "P2C_MAP_TOFROM",
    };
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    Some(join_kind(base, &flags))
}

fn join_kind(base: &str, flags: &[&str]) -> String {
    let mut v = vec![base];
    v.extend_from_slice(flags);
    v.join(" | ")
}

/// The runtime kind of an OpenACC data clause on construct `kind`, or None
/// when the clause is not a data clause there.
fn acc_clause_kind(kind: DataKind, name: &str) -> Option<&'static str> {
    let entry = matches!(
        kind,
        DataKind::Region | DataKind::Enter | DataKind::DeclareScope
    );
    match name {
        "copy" | "pcopy" | "present_or_copy" if kind != DataKind::Enter && entry => {
            Some("P2C_MAP_TOFROM")
        }
        "copyin" | "pcopyin" | "present_or_copyin" if entry => Some("P2C_MAP_TO"),
        "copyout" | "pcopyout" | "present_or_copyout" if kind != DataKind::Enter && entry => {
            Some("P2C_MAP_FROM")
        }
        "create" | "pcreate" | "present_or_create" if entry => Some("P2C_MAP_ALLOC"),
        "device_resident" if kind == DataKind::DeclareScope => Some("P2C_MAP_ALLOC"),
        "present" if kind == DataKind::Region || kind == DataKind::DeclareScope => {
            Some("P2C_MAP_PRESENT")
        }
        "no_create" if kind == DataKind::Region => Some("P2C_MAP_NO_CREATE"),
        "copyout" if kind == DataKind::Exit => Some("P2C_MAP_FROM"),
        "delete" if kind == DataKind::Exit => Some("P2C_MAP_RELEASE"),
        "attach" if kind == DataKind::Region || kind == DataKind::Enter => Some("P2C_MAP_ATTACH"),
        "detach" if kind == DataKind::Exit => Some("P2C_MAP_ATTACH"),
        _ => None,
    }
}

/// Resolves one list item to a variable and its host range; None (with a
/// diagnostic) when it cannot be mapped.
pub fn resolve_item(
    d: &Directive,
    item: &ListItem,
    symbols: &crate::sema::symbols::Scope,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Symbol, RangeExpr)> {
    if !item.path.is_empty() {
        let deep = item.path.contains("->") || !item.sections.is_empty();
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                item.span,
                if deep {
                    format!(
                        "`{}{}`: deep copy through pointer members is not supported yet",
                        item.name, item.path
                    )
                } else {
                    "struct members in data clauses are not supported yet".to_string()
                },
            )
            .with_label(if deep {
                "the data behind a member pointer"
            } else {
                "member access"
            })
            .with_help(format!(
                "copy the member into a pointer variable and use that in the regions: `T *p = {}{};` with `{}`",
                item.name,
                item.path,
                if d.model == Model::Omp {
                    "map(tofrom: p[0:n])"
                } else {
                    "copy(p[0:n])"
                }
            )),
        );
        return None;
    }
    let sym = match symbols.get(&item.name) {
        Some(s) if !s.is_typedef && !s.ty.is_function() => s.clone(),
        _ => {
            diags.push(
                Diagnostic::new(
                    codes::UNDECLARED,
                    item.name_span,
                    format!("`{}` is not a declared variable", item.name),
                )
                .with_label("not declared before this directive"),
            );
            return None;
        }
    };
    match crate::sema::param_extent::declared_section(d.model, item, &sym, symbols) {
        Ok(Some(whole)) => {
            let len = whole.length.map(|e| e.text).unwrap_or_default();
            let lo = "0".to_string();
            return Some((sym, RangeExpr::Section { lo, len }));
        }
        Ok(None) => {}
        Err(e) => {
            diags.push(*e);
            return None;
        }
    }
    if !check_sections(d.model, item, &sym, diags) {
        return None;
    }
    if item.sections.len() > 2 {
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                item.sections[2].span,
                "array sections in more than two dimensions are not supported yet",
            )
            .with_label("third dimension")
            .with_help("map whole rows: leave the sections of the inner dimensions out"),
        );
        return None;
    }
    let name = &item.name;
    let bound =
        |s: &Section, dim: usize, diags: &mut Vec<Diagnostic>| -> Option<(String, String)> {
            let lo = s
                .lower
                .as_ref()
                .map(|e| e.text.clone())
                .unwrap_or_else(|| "0".into());
            if s.is_index {
                return Some((lo, "1".into()));
            }
            let len =
                match &s.length {
                    Some(e) => e.text.clone(),
                    None => {
                        let known = match dim {
                            0 => sym.ty.is_array(),
                            _ => true,
                        };
                        if !known {
                            diags.push(
                        Diagnostic::new(
                            codes::BAD_SECTION,
                            s.span,
                            format!("the length of this section of pointer `{name}` must be given"),
                        )
                        .with_label("no length")
                        .with_help(format!("write `{name}[{lo}:n]`")),
                    );
                            return None;
                        }
                        let extent = if dim == 0 {
                            format!("(long long)(sizeof({name}) / sizeof({name}[0]))")
                        } else {
                            format!("(long long)(sizeof({name}[0]) / sizeof({name}[0][0]))")
                        };
                        if lo == "0" {
                            extent
                        } else {
                            format!("{extent} - ({lo})")
                        }
                    }
                };
            Some((lo, len))
        };
    let range = match item.sections.as_slice() {
        [] => RangeExpr::Object,
        [s] => {
            let (lo, len) = bound(s, 0, diags)?;
            RangeExpr::Section { lo, len }
        }
        [s, t, ..] => {
            let (lo, len) = bound(s, 0, diags)?;
            let (lo2, len2) = bound(t, 1, diags)?;
            RangeExpr::Section2 { lo, len, lo2, len2 }
        }
    };
    Some((sym, range))
}

/// Lowers one data construct.
pub fn build_data(
    file: &SourceFile,
    tree: &CTree,
    at: &Attached,
    kind: DataKind,
    diags: &mut Vec<Diagnostic>,
) -> Option<DataOp> {
    let d = &at.directive;
    let errors_before = diags.iter().filter(|x| x.is_error()).count();
    let root = tree.root()?;
    if at.function.is_none() {
        diags.push(
            Diagnostic::new(
                codes::BAD_NESTING,
                d.name_span,
                format!(
                    "`{} {}` is executable: it must be inside a function",
                    d.model.as_str(),
                    d.name
                ),
            )
            .with_label("at file scope"),
        );
        return None;
    }
    let stmt = if kind == DataKind::Region {
        Some(region_statement(root, at, diags)?)
    } else {
        None
    };
    let symbols = symbols::visible_before(root, &file.text, d.span.start);
    super::asynchrony::check_arguments(d, diags);
    let task_wait = super::asynchrony::omp_task_wait(d, &file.text, diags);
    let c = read_clauses(d, kind, &symbols, diags);
    if diags.iter().filter(|x| x.is_error()).count() > errors_before {
        return None;
    }
    let refs = match (kind, d.model) {
        (DataKind::Enter | DataKind::Exit, Model::Omp) => "P2C_REF_OMP_DYNAMIC",
        (DataKind::Enter | DataKind::Exit, Model::Acc) => "P2C_REF_ACC_DYNAMIC",
        _ => "P2C_REF_STRUCTURED",
    };
    Some(DataOp {
        kind,
        model: d.model,
        construct: d.name.clone(),
        pragma_text: crate::source::pragma_text::pragma_one_line(file.slice(d.span)),
        pragma: d.span,
        stmt,
        function: at
            .function
            .as_ref()
            .map(|f| f.0.clone())
            .unwrap_or_else(|| "file".into()),
        line: file.line_of(d.span.start),
        items: c.items,
        if_cond: c.if_cond,
        device: c.device,
        default_async: c.default_async,
        acc_queue: super::asynchrony::acc_queue(d),
        task_wait,
        omp_task: super::asynchrony::omp_target_task(d, &file.text),
        refs,
        notes: c.notes,
        device_ptrs: c.device_ptrs,
        calls: vec![],
        use_device: c.use_device,
    })
}

/// The statement a data region covers: not a declaration, and parsed
/// without error.
fn region_statement(
    root: crate::front::c::Node<'_>,
    at: &Attached,
    diags: &mut Vec<Diagnostic>,
) -> Option<Span> {
    let d = &at.directive;
    let Some(stmt_span) = at.stmt else {
        diags.push(
            Diagnostic::new(
                codes::NO_STATEMENT,
                d.span,
                format!(
                    "`{} {}` must be followed by a statement",
                    d.model.as_str(),
                    d.name
                ),
            )
            .with_label("no statement follows"),
        );
        return None;
    };
    let node = root.descendant_for_byte_range(stmt_span.start, stmt_span.end)?;
    if node.kind() == "declaration" {
        diags.push(
            Diagnostic::new(
                codes::NO_STATEMENT,
                stmt_span,
                format!(
                    "`{} {}` is followed by a declaration, which is not a structured block",
                    d.model.as_str(),
                    d.name
                ),
            )
            .with_label("a declaration")
            .with_secondary(d.span, "data region begins here")
            .with_help("put the statements the data region covers in braces `{ ... }`"),
        );
        return None;
    }
    if node.has_error() {
        diags.push(
            Diagnostic::new(
                codes::C_PARSE,
                stmt_span,
                "the C code of this data region could not be parsed; no code is generated for it",
            )
            .with_label("syntax error in here")
            .with_secondary(d.span, "data region begins here"),
        );
        return None;
    }
    Some(stmt_span)
}

/// What the clauses of a data construct ask for.
struct DataClauses {
    items: Vec<DataItem>,
    if_cond: Option<String>,
    device: Option<String>,
    /// OpenMP skips absent data in `update`; OpenACC only with if_present.
    present_ok: bool,
    finalize: bool,
    /// `acc set default_async(n)`: the queue expression.
    default_async: Option<String>,
    notes: Vec<String>,
    /// `deviceptr` items (OpenACC `data` / `declare`).
    device_ptrs: Vec<String>,
    /// `use_device_ptr` / `use_device_addr` / `use_device` items.
    use_device: Vec<UseDevice>,
}

/// Reads every clause: the mapped items with their kind and direction, the
/// `if` and `device` expressions, `if_present`, `finalize`.
fn read_clauses(
    d: &Directive,
    kind: DataKind,
    symbols: &symbols::Scope,
    diags: &mut Vec<Diagnostic>,
) -> DataClauses {
    let mut st = DataClauses {
        items: Vec::new(),
        if_cond: None,
        device: None,
        present_ok: d.model == Model::Omp,
        finalize: false,
        default_async: None,
        notes: Vec::new(),
        device_ptrs: Vec::new(),
        use_device: Vec::new(),
    };
    let host_data_if_present = d.model == Model::Acc && d.clause("if_present").is_some();
    for c in &d.clauses {
        if kind == DataKind::Region
            && matches!(
                (d.model, c.name.as_str()),
                (Model::Omp, "use_device_ptr" | "use_device_addr") | (Model::Acc, "use_device")
            )
        {
            read_use_device(d, c, symbols, &mut st, diags);
            continue;
        }
        if d.model == Model::Acc && d.name == "host_data" && c.name == "if_present" {
            continue;
        }
        if d.model == Model::Acc
            && c.name == "deviceptr"
            && matches!(kind, DataKind::Region | DataKind::DeclareScope)
        {
            read_device_ptrs(d, c, symbols, &mut st, diags);
            continue;
        }
        let Some((item_kind, to_device, present)) = clause_mapping(d, kind, c, &mut st, diags)
        else {
            continue;
        };
        if !matches!(c.args, ClauseArgs::List { .. }) {
            continue;
        }
        for item in c.items() {
            if d.model == Model::Acc
                && (!item.path.is_empty() || super::acc_attach::pointer_clause(&c.name))
            {
                let declared = symbols
                    .get(&item.name)
                    .is_some_and(|s| !s.is_typedef && !s.ty.is_function());
                if let Some((name, range)) =
                    super::acc_attach::member_item(d, kind, &c.name, item, declared, diags)
                {
                    st.items.push(DataItem {
                        name,
                        range,
                        kind: item_kind.clone(),
                        to_device,
                        absent_ok: st.present_ok && !present,
                        clause: c.name.clone(),
                        span: item.span,
                        attach: true,
                    });
                }
                continue;
            }
            let Some((sym, range)) = resolve_item(d, item, symbols, diags) else {
                continue;
            };
            if matches!(kind, DataKind::Region | DataKind::DeclareScope) {
                if let Some(prev) = st
                    .items
                    .iter_mut()
                    .find(|p| p.name == sym.name && p.range == range)
                {
                    if let Some(k) = merged_kind(&prev.kind, &item_kind) {
                        prev.kind = k;
                        prev.clause = format!("{} + {}", prev.clause, c.name);
                        continue;
                    }
                }
            }
            st.items.push(DataItem {
                name: sym.name.clone(),
                range,
                kind: item_kind.clone(),
                to_device,
                absent_ok: st.present_ok && !present,
                clause: c.name.clone(),
                span: item.span,
                attach: false,
            });
        }
    }
    if !st.device_ptrs.is_empty() {
        st.notes.push(format!(
            "deviceptr({}): device addresses; the regions inside copy the pointers' values in, nothing is mapped",
            st.device_ptrs.join(", ")
        ));
    }
    if d.model == Model::Acc {
        for u in &mut st.use_device {
            u.absent_ok = host_data_if_present;
        }
    }
    for u in &st.use_device {
        st.notes.push(use_device_note(u));
    }
    if st.finalize {
        for it in &mut st.items {
            it.kind.push_str(" | P2C_MAP_FINALIZE");
        }
    }
    // if_present may follow the list clauses.
    if st.present_ok && kind == DataKind::Update && d.model == Model::Acc {
        for it in &mut st.items {
            it.absent_ok = true;
        }
    }
    st
}

/// `use_device_ptr(p)` / `use_device_addr(x)` on `target data` (OpenMP 5.2
/// 5.4.10, 5.4.11) and `use_device(a)` on `acc host_data` (OpenACC 3.3
/// 2.8.1): in the statement the construct covers, the name denotes the
/// device copy. A pointer (with or without a section) becomes the device
/// address its value corresponds to; an array or scalar is the variable
/// at its device address. Members of structures are refused.
fn read_use_device(
    d: &Directive,
    c: &Clause,
    symbols: &symbols::Scope,
    st: &mut DataClauses,
    diags: &mut Vec<Diagnostic>,
) {
    for item in c.items() {
        let Some(sym) = symbols.get(&item.name) else {
            let _ = resolve_item(d, item, symbols, diags);
            continue;
        };
        if !item.path.is_empty() || sym.ty.is_function() {
            diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    item.span,
                    format!(
                        "`{}{}` in `{}` on `{} {}` is not supported yet: only a variable (or a section of one) is lowered",
                        item.name,
                        item.path,
                        c.name,
                        d.model.as_str(),
                        d.name
                    ),
                )
                .with_label("not lowered yet"),
            );
            continue;
        }
        if st.use_device.iter().any(|u| u.name == sym.name) {
            continue;
        }
        let addr =
            !sym.ty.is_pointer() || (c.name == "use_device_addr" && item.sections.is_empty());
        st.use_device.push(UseDevice {
            name: sym.name.clone(),
            addr,
            absent_ok: d.model == Model::Omp,
        });
    }
}

/// The plan's line (and the generated comment) for one `use_device` item.
fn use_device_note(u: &UseDevice) -> String {
    let absent = if u.absent_ok {
        "absent data keeps the host address"
    } else {
        "absent data is a runtime error"
    };
    if u.addr {
        format!(
            "`{}` in the statement is the variable's device copy (a host-side reference to the address the present table maps it to; {absent})",
            u.name
        )
    } else {
        format!(
            "`{}` in the statement is a device address: a host-side local holding the present-table lookup of the pointer's value ({absent}; NULL stays NULL)",
            u.name
        )
    }
}

/// `deviceptr(p, ...)` on `acc data` / `acc declare`: the pointers hold
/// device addresses for the code the construct covers (OpenACC 3.3 2.7.4);
/// nothing is mapped, the regions inside copy the values in
/// (`sema::sharing::ENCLOSING_DEVICE_PTR`). Only pointer variables.
fn read_device_ptrs(
    d: &Directive,
    c: &Clause,
    symbols: &symbols::Scope,
    st: &mut DataClauses,
    diags: &mut Vec<Diagnostic>,
) {
    for item in c.items() {
        match symbols.get(&item.name) {
            Some(sym) if sym.ty.is_pointer() && item.path.is_empty() && item.sections.is_empty() => {
                st.device_ptrs.push(item.name.clone());
            }
            Some(_) => diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    item.span,
                    format!(
                        "`{}` in `deviceptr` on `acc {}` is not supported yet: only a pointer variable is lowered",
                        item.name, d.name
                    ),
                )
                .with_label("not a pointer variable"),
            ),
            None => {
                let _ = resolve_item(d, item, symbols, diags);
            }
        }
    }
}

/// Which list items one clause maps: (map kind, to the device, `present`
/// motion modifier); `None` for a clause that maps nothing (its effect
/// recorded in `st`) or that is refused.
fn clause_mapping(
    d: &Directive,
    kind: DataKind,
    c: &Clause,
    st: &mut DataClauses,
    diags: &mut Vec<Diagnostic>,
) -> Option<(String, bool, bool)> {
    let name = c.name.as_str();
    match (d.model, name) {
        (_, "if") => {
            st.if_cond = c.expr().map(|e| e.text.clone());
            None
        }
        (Model::Omp, "device") => {
            if let ClauseArgs::Expr {
                modifier: Some(m), ..
            } = &c.args
            {
                if m.text != "device_num" {
                    diags.push(
                        Diagnostic::new(
                            codes::NOT_SUPPORTED,
                            m.span,
                            format!("`device({}: ...)` is not supported yet", m.text),
                        )
                        .with_label("not lowered yet"),
                    );
                    return None;
                }
            }
            st.device = c.expr().map(|e| e.text.clone());
            None
        }
        (Model::Acc, "default_async") if kind == DataKind::SetDefaultAsync => {
            st.default_async = c.expr().map(|e| e.text.clone());
            None
        }
        (Model::Acc, "if_present") if kind == DataKind::Update => {
            st.present_ok = true;
            None
        }
        (Model::Acc, "finalize") if kind == DataKind::Exit => {
            st.finalize = true;
            None
        }
        (Model::Acc, "async" | "wait") => None, // the construct's `acc_queue`
        // The construct's `omp_task`: the plan's `task:` line says whether
        // it is deferred.
        (m, n) if synchronous_clause(m, n) => None,
        (Model::Omp, "map") if kind != DataKind::Update => {
            omp_map_kind(d, kind, c, diags).map(|k| (k, false, false))
        }
        (Model::Omp, "to" | "from") if kind == DataKind::Update => {
            let present = motion_present(c, diags)?;
            Some((String::new(), name == "to", present))
        }
        (Model::Acc, "host" | "self" | "device") if kind == DataKind::Update => {
            Some((String::new(), name == "device", false))
        }
        (Model::Acc, n) => match acc_clause_kind(kind, n) {
            Some(k) => {
                let zero = crate::sema::sharing::acc_zero_clause(n)
                    && c.modifiers().iter().any(|m| m.text == "zero");
                Some((
                    join_kind(k, if zero { &["P2C_MAP_ZERO"] } else { &[] }),
                    false,
                    false,
                ))
            }
            None => {
                not_supported(c, d, diags);
                None
            }
        },
        _ => {
            not_supported(c, d, diags);
            None
        }
    }
}

/// The motion modifiers of `omp target update to/from`: whether `present`
/// is among them; `None` when one is not lowered.
fn motion_present(c: &Clause, diags: &mut Vec<Diagnostic>) -> Option<bool> {
    let mut present = false;
    let mut bad = false;
    for m in c.modifiers() {
        match m.text.as_str() {
            "present" => present = true,
            other => {
                diags.push(
                    Diagnostic::new(
                        codes::NOT_SUPPORTED,
                        m.span,
                        format!("motion modifier `{other}` is not supported yet"),
                    )
                    .with_label("not lowered yet"),
                );
                bad = true;
            }
        }
    }
    (!bad).then_some(present)
}
