//! Declarations for the device: which functions are compiled for the device
//! and which file-scope variables get a device copy.
//!
//! Explicit: `omp declare target` (the 4.5 begin/end pair, `begin declare
//! target` / `end declare target`, and the list forms `declare target(f, v)`,
//! `to(...)`, `enter(...)`), `acc routine` (the next function, or the one it
//! names) and `acc declare create/copyin/device_resident` at file scope.
//! Implicit, as OpenMP 5.2 and OpenACC 3.3 say: a function defined in this
//! file and called from an offloaded region, or from another device function,
//! is a device function too.
//!
//! A device function becomes `__host__ __device__` (`__device__` for
//! `device_type(nohost)` / `nohost`) on its definition and every declaration.
//! A device variable keeps its host definition and gains a `__device__`
//! mirror with the same type and initializer, registered in the present table
//! as permanently present, so regions and `update` reach the mirror through
//! the ordinary map machinery; inside device functions the variable's name is
//! rewritten to `P2C_DECLARED_VAR(host, mirror)`, which is the mirror on the
//! device and the variable on the host.

use crate::diag::{codes, Diagnostic};
use crate::directives::{ClauseArgs, Directive, Model};
use crate::front::c::Node;
use crate::front::{function_name, Attached, CTree};
use crate::ir::declare::{DeclarePlan, DeviceFn, DeviceVar};
use crate::sema::ctype::{declarator, specifiers};
use crate::sema::{calls, symbols, uses, CType, Storage};
use crate::source::pragma_text::pragma_one_line;
use crate::source::{SourceFile, Span};
use std::collections::{BTreeMap, BTreeSet};

/// A file-scope declaration or definition of a name.
#[derive(Clone, Debug)]
struct TopDecl {
    start: usize,
    end: usize,
    is_function: bool,
    is_definition: bool,
    /// The declaration also declares other names (a function and variables together).
    mixed: bool,
    is_extern: bool,
    is_static: bool,
    ty: CType,
    init: Option<String>,
    /// Function definitions: the body (parameters are read when needed).
    body: Option<Span>,
}

/// Every top-level declaration, by name, in source order (through
/// `extern "C"` blocks and preprocessor conditionals).
fn top_level(root: Node<'_>, text: &str) -> BTreeMap<String, Vec<TopDecl>> {
    let mut out: BTreeMap<String, Vec<TopDecl>> = BTreeMap::new();
    fn walk(n: Node<'_>, text: &str, out: &mut BTreeMap<String, Vec<TopDecl>>) {
        let mut c = n.walk();
        let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
        for item in kids {
            match item.kind() {
                "function_definition" => {
                    let Some(name) = function_name(item, text) else {
                        continue;
                    };
                    let (base, is_static, is_extern, _) = specifiers(item, text);
                    let derivs = item
                        .child_by_field_name("declarator")
                        .and_then(|d| declarator(d, text))
                        .map(|(_, _, d)| d)
                        .unwrap_or_default();
                    let body = item
                        .child_by_field_name("body")
                        .map(|b| Span::new(b.start_byte(), b.end_byte()));
                    out.entry(name).or_default().push(TopDecl {
                        start: item.start_byte(),
                        end: item.end_byte(),
                        is_function: true,
                        is_definition: true,
                        mixed: false,
                        is_extern,
                        is_static,
                        ty: CType { base, derivs },
                        init: None,
                        body,
                    });
                }
                "declaration" => {
                    let mut syms = Vec::new();
                    symbols::declared_by(item, text, Storage::Global, &mut syms);
                    let kinds: BTreeSet<bool> = syms.iter().map(|s| s.ty.is_function()).collect();
                    let mixed = kinds.len() > 1;
                    let mut c2 = item.walk();
                    let decls: Vec<Node<'_>> =
                        item.children_by_field_name("declarator", &mut c2).collect();
                    for s in syms {
                        if s.is_typedef {
                            continue;
                        }
                        let init = decls
                            .iter()
                            .filter(|d| d.kind() == "init_declarator")
                            .find(|d| {
                                declarator(**d, text).map(|(n, _, _)| n).as_deref()
                                    == Some(s.name.as_str())
                            })
                            .and_then(|d| d.child_by_field_name("value"))
                            .map(|v| text[v.start_byte()..v.end_byte()].to_string());
                        out.entry(s.name.clone()).or_default().push(TopDecl {
                            start: item.start_byte(),
                            end: item.end_byte(),
                            is_function: s.ty.is_function(),
                            is_definition: false,
                            mixed,
                            is_extern: s.is_extern,
                            is_static: s.is_static,
                            ty: s.ty,
                            init,
                            body: None,
                        });
                    }
                }
                "linkage_specification"
                | "declaration_list"
                | "preproc_if"
                | "preproc_ifdef"
                | "preproc_else"
                | "preproc_elif" => walk(item, text, out),
                _ => {}
            }
        }
    }
    walk(root, text, &mut out);
    out
}

/// A name marked for the device, with how it was marked.
struct Mark {
    name: String,
    span: Span,
    spec: &'static str,
    rule: String,
}

fn spec_of(d: &Directive) -> Option<&'static str> {
    match d.model {
        Model::Omp => match d.clause("device_type").and_then(|c| c.keyword()) {
            Some("host") => None,
            Some("nohost") => Some("__device__"),
            _ => Some("__host__ __device__"),
        },
        Model::Acc => {
            if d.clause("nohost").is_some() {
                Some("__device__")
            } else {
                Some("__host__ __device__")
            }
        }
    }
}

/// Reads every declarative directive of the file. The implicit device
/// functions are added later by [`add_called`], once the regions are known.
pub fn collect(
    file: &SourceFile,
    tree: &CTree,
    attached: &[Attached],
    diags: &mut Vec<Diagnostic>,
) -> DeclarePlan {
    let Some(root) = tree.root() else {
        return DeclarePlan::default();
    };
    let tops = top_level(root, file.text.as_str());
    let mut r = Reading {
        file,
        root,
        plan: DeclarePlan::default(),
        marks: Vec::new(),
        open: Vec::new(),
        ranges: Vec::new(),
    };
    for at in attached {
        let d = &at.directive;
        if is_assumption(d) {
            let one_line = pragma_one_line(file.slice(d.span));
            r.plan.rewrites.push((
                d.span,
                format!("/* pragma2cuda: `{one_line}` (an assumption, which the translation need not keep) */"),
            ));
            continue;
        }
        if at.function.is_some() && !names_file_scope_only(d, root, file.text.as_str()) {
            refuse_in_function(d, diags);
            continue;
        }
        match (d.model, d.name.as_str()) {
            (Model::Omp, "declare target" | "begin declare target") => r.declare_target(d, diags),
            (Model::Omp, "end declare target") => r.end_declare_target(d),
            (Model::Acc, "routine") => r.acc_routine(at, diags),
            (Model::Acc, "declare") => r.acc_declare(d, diags),
            _ => {}
        }
    }
    // A range left open, or an end without a range: valid/declare_target_pairs.rs
    // (E0219).
    r.mark_ranges(&tops);
    let Reading {
        mut plan, marks, ..
    } = r;
    resolve_marks(marks, &tops, &mut plan, diags);
    plan
}

/// `assume`, `assumes`, `begin assumes`, `end assumes`: promises that let
/// a compiler optimize, which an implementation may ignore. The translation
/// keeps them as comments: compilers that predate them (gcc 12 stops at
/// `end assumes`) build the output, and the offloaded code they name is
/// translated anyway.
fn is_assumption(d: &Directive) -> bool {
    d.model == Model::Omp
        && matches!(
            d.name.as_str(),
            "assume" | "assumes" | "begin assumes" | "end assumes"
        )
}

/// An `omp declare target` list form (`declare target(f)`, `to(f)`,
/// `enter(f)`, `link(v)`) inside a function whose every item is a
/// file-scope function or variable visible there: OpenMP 5.0 allows it at
/// block scope, and it marks those file-scope declarations as at file scope.
fn names_file_scope_only(d: &Directive, root: Node<'_>, text: &str) -> bool {
    if d.model != Model::Omp || d.name != "declare target" || d.opens_declare_target_range() {
        return false;
    }
    let scope = symbols::visible_before(root, text, d.span.start);
    let mut items: Vec<&str> = Vec::new();
    if let Some(ClauseArgs::List { items: its, .. }) = d.arg.as_ref().map(|a| &a.args) {
        items.extend(its.iter().map(|i| i.name.as_str()));
    }
    for c in &d.clauses {
        match c.name.as_str() {
            "to" | "enter" | "link" => items.extend(c.items().iter().map(|i| i.name.as_str())),
            "device_type" => {}
            _ => return false,
        }
    }
    !items.is_empty()
        && items.iter().all(|n| {
            scope
                .get(n)
                .is_some_and(|s| s.storage == Storage::Global && !s.is_typedef)
        })
}

/// `declare target` and `acc routine` inside a function (`acc declare` in a
/// function is a data construct, lower::data).
fn refuse_in_function(d: &Directive, diags: &mut Vec<Diagnostic>) {
    let declarative = matches!(
        (d.model, d.name.as_str()),
        (
            Model::Omp,
            "declare target" | "begin declare target" | "end declare target"
        ) | (Model::Acc, "routine")
    );
    if declarative {
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                d.name_span,
                format!(
                    "`{} {}` inside a function is not supported yet",
                    d.model.as_str(),
                    d.name
                ),
            )
            .with_label("inside a function")
            .with_help("put the directive at file scope, next to the declarations it names"),
        );
    }
}

/// The file-scope declarative directives read so far.
struct Reading<'a> {
    file: &'a SourceFile,
    root: Node<'a>,
    plan: DeclarePlan,
    /// Names marked for the device, resolved at the end.
    marks: Vec<Mark>,
    /// Open begin/end ranges: (pragma, spec).
    open: Vec<(&'a Directive, Option<&'static str>)>,
    /// Closed begin/end ranges: (between the pragmas, spec, rule).
    ranges: Vec<(Span, Option<&'static str>, String)>,
}

impl<'a> Reading<'a> {
    fn line(&self, d: &Directive) -> usize {
        self.file.line_of(d.span.start)
    }

    fn keep_pragma(&mut self, d: &Directive) {
        let one_line = pragma_one_line(self.file.slice(d.span));
        self.plan.pragmas.push((d.span, one_line));
    }

    /// `omp declare target` with a list (marks) or without (opens a range),
    /// `omp begin declare target` (opens a range).
    fn declare_target(&mut self, d: &'a Directive, diags: &mut Vec<Diagnostic>) {
        self.keep_pragma(d);
        for c in &d.clauses {
            if !matches!(c.name.as_str(), "to" | "enter" | "link" | "device_type") {
                diags.push(
                    Diagnostic::new(
                        codes::NOT_SUPPORTED,
                        c.name_span,
                        format!(
                            "clause `{}` on `omp {}` is not supported yet",
                            c.name, d.name
                        ),
                    )
                    .with_label("not lowered yet"),
                );
            }
        }
        if d.opens_declare_target_range() {
            self.open.push((d, spec_of(d)));
            return;
        }
        let spec = spec_of(d);
        let mut items: Vec<(String, Span)> = Vec::new();
        if let Some(ClauseArgs::List { items: its, .. }) = d.arg.as_ref().map(|a| &a.args) {
            items.extend(its.iter().map(|i| (i.name.clone(), i.name_span)));
        }
        for c in d.clauses_named("to").chain(d.clauses_named("enter")) {
            items.extend(c.items().iter().map(|i| (i.name.clone(), i.name_span)));
        }
        if let Some(spec) = spec {
            // `link`: a device copy that exists only while a construct maps
            // the variable (OpenMP 5.2, 7.8.1); the mirror is its storage,
            // which the map clauses fill and empty (lower/declare.rs
            // `DeviceVar::link`).
            for c in d.clauses_named("link") {
                for i in c.items() {
                    self.marks.push(Mark {
                        name: i.name.clone(),
                        span: i.name_span,
                        spec,
                        rule: format!("declare target link (line {})", self.line(d)),
                    });
                }
            }
        }
        if let Some(spec) = spec {
            for (name, span) in items {
                self.marks.push(Mark {
                    name,
                    span,
                    spec,
                    rule: format!("declare target (line {})", self.line(d)),
                });
            }
        }
    }

    /// `omp end declare target`: closes the innermost open range.
    fn end_declare_target(&mut self, d: &Directive) {
        self.keep_pragma(d);
        // An end without a range: valid/declare_target_pairs.rs (E0219).
        if let Some((b, spec)) = self.open.pop() {
            self.ranges.push((
                Span::new(b.span.end, d.span.start),
                spec,
                format!("declare target (lines {}-{})", self.line(b), self.line(d)),
            ));
        }
    }

    /// `acc routine`: marks the function it names or that follows it.
    fn acc_routine(&mut self, at: &Attached, diags: &mut Vec<Diagnostic>) {
        let d = &at.directive;
        self.keep_pragma(d);
        for c in &d.clauses {
            if !matches!(
                c.name.as_str(),
                "seq" | "vector" | "worker" | "gang" | "nohost"
            ) {
                diags.push(
                    Diagnostic::new(
                        codes::NOT_SUPPORTED,
                        c.name_span,
                        format!("clause `{}` on `acc routine` is not supported yet", c.name),
                    )
                    .with_label("not lowered yet"),
                );
            }
        }
        let level = ["gang", "worker", "vector"]
            .into_iter()
            .find(|l| d.clause(l).is_some());
        if let Some(l) = level {
            self.plan.notes.push(format!(
                "`acc routine {l}` at line {}: each calling thread runs the routine's loops sequentially (correct; no {l} parallelism inside)",
                self.line(d)
            ));
        }
        let rule = format!("acc routine (line {})", self.line(d));
        match self.routine_target(at) {
            Some((name, span)) => self.marks.push(Mark {
                name,
                span,
                spec: spec_of(d).unwrap_or("__host__ __device__"),
                rule,
            }),
            None => diags.push(
                Diagnostic::new(
                    codes::NO_STATEMENT,
                    d.name_span,
                    "`acc routine` must be followed by a function declaration or definition, or name one: `acc routine(f) seq`",
                )
                .with_label("no function follows"),
            ),
        }
    }

    /// The function an `acc routine` names (`acc routine(f)`), or the one
    /// declared or defined right after it.
    fn routine_target(&self, at: &Attached) -> Option<(String, Span)> {
        let d = &at.directive;
        let named = match d.arg.as_ref().map(|a| &a.args) {
            Some(ClauseArgs::Expr { expr, .. }) => Some((expr.text.clone(), expr.span)),
            Some(ClauseArgs::List { items, .. }) => {
                items.first().map(|i| (i.name.clone(), i.name_span))
            }
            _ => None,
        };
        let text = self.file.text.as_str();
        named.or_else(|| {
            let s = at.stmt?;
            let n = self.root.descendant_for_byte_range(s.start, s.end)?;
            let name = match n.kind() {
                "function_definition" => function_name(n, text),
                "declaration" => {
                    let mut syms = Vec::new();
                    symbols::declared_by(n, text, Storage::Global, &mut syms);
                    syms.into_iter()
                        .find(|s| s.ty.is_function())
                        .map(|s| s.name)
                }
                _ => None,
            }?;
            Some((name, d.name_span))
        })
    }

    /// A file-scope `acc declare`: marks its `create` / `copyin` /
    /// `device_resident` variables.
    fn acc_declare(&mut self, d: &Directive, diags: &mut Vec<Diagnostic>) {
        self.keep_pragma(d);
        for c in &d.clauses {
            match c.name.as_str() {
                "create" | "copyin" | "device_resident" | "pcreate" | "pcopyin"
                | "present_or_create" | "present_or_copyin" => {
                    super::acc_modifiers::refuse_zero_at_file_scope(d, c, diags);
                    for i in c.items() {
                        if !i.sections.is_empty() || !i.path.is_empty() {
                            diags.push(
                                Diagnostic::new(
                                    codes::NOT_SUPPORTED,
                                    i.span,
                                    "sections and members in a file-scope `acc declare` are not supported yet; name the whole variable",
                                )
                                .with_label("not lowered yet"),
                            );
                            continue;
                        }
                        self.marks.push(Mark {
                            name: i.name.clone(),
                            span: i.name_span,
                            spec: "__host__ __device__",
                            rule: format!("acc declare {} (line {})", c.name, self.line(d)),
                        });
                    }
                }
                "link" => {
                    for i in c.items() {
                        self.plan.notes.push(format!(
                            "`{}` (acc declare link): mapped by the data clauses of each region, like any variable",
                            i.name
                        ));
                    }
                }
                _ => diags.push(
                    Diagnostic::new(
                        codes::NOT_SUPPORTED,
                        c.name_span,
                        format!(
                            "clause `{}` on a file-scope `acc declare` is not supported yet",
                            c.name
                        ),
                    )
                    .with_label("not lowered yet"),
                ),
            }
        }
    }

    /// Everything declared inside a begin/end range (an `extern` variable
    /// there means its definition elsewhere in the file).
    fn mark_ranges(&mut self, tops: &BTreeMap<String, Vec<TopDecl>>) {
        for (range, spec, rule) in &self.ranges {
            let Some(spec) = spec else { continue };
            for (name, decls) in tops {
                if let Some(t) = decls
                    .iter()
                    .find(|t| t.start >= range.start && t.end <= range.end)
                {
                    self.marks.push(Mark {
                        name: name.clone(),
                        span: Span::new(t.start, t.start),
                        spec,
                        rule: rule.clone(),
                    });
                }
            }
        }
    }
}

/// Resolves the marks against the file's declarations: device functions and
/// device variables, first mark of a name wins.
fn resolve_marks(
    mut marks: Vec<Mark>,
    tops: &BTreeMap<String, Vec<TopDecl>>,
    plan: &mut DeclarePlan,
    diags: &mut Vec<Diagnostic>,
) {
    marks.sort_by_key(|m| m.span.start);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for m in marks {
        if !seen.insert(m.name.clone()) {
            continue;
        }
        let Some(decls) = tops.get(&m.name) else {
            if m.rule.starts_with("acc routine") {
                // `acc routine(fmin) seq`: a function from a header; CUDA
                // supplies the device versions of the C math library.
                plan.notes.push(format!(
                    "`{}` ({}) is not declared in this file: a library function needs no marking",
                    m.name, m.rule
                ));
                continue;
            }
            diags.push(
                Diagnostic::new(
                    codes::UNDECLARED,
                    m.span,
                    format!("`{}` is not declared at file scope", m.name),
                )
                .with_label("named for the device here"),
            );
            continue;
        };
        let link = m.rule.starts_with("declare target link");
        if link && decls.iter().any(|t| t.is_function) {
            plan.notes.push(format!(
                "`{}` ({}) is a function: `link` names variables only",
                m.name, m.rule
            ));
            continue;
        }
        if decls.iter().any(|t| t.is_function) {
            if let Some(f) = device_fn(&m.name, decls, m.spec, m.rule, m.span, diags) {
                plan.fns.push(f);
            }
        } else {
            match decls.iter().find(|t| !t.is_extern) {
                Some(def) => plan.vars.push(DeviceVar {
                    name: m.name.clone(),
                    ty: def.ty.clone(),
                    is_static: def.is_static,
                    init: def.init.clone(),
                    after: def.end,
                    rule: m.rule,
                    link,
                }),
                None => diags.push(
                    Diagnostic::new(
                        codes::NOT_SUPPORTED,
                        m.span,
                        format!(
                            "`{}` is defined in another file: a device copy shared between files (relocatable device code) is not supported yet",
                            m.name
                        ),
                    )
                    .with_label("declared `extern` only")
                    .with_help("define the variable in this file, or map it with map clauses instead"),
                ),
            }
        }
    }
}

fn device_fn(
    name: &str,
    decls: &[TopDecl],
    spec: &'static str,
    rule: String,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<DeviceFn> {
    if name == "main" {
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                span,
                "`main` cannot be a device function",
            )
            .with_label("named for the device here"),
        );
        return None;
    }
    if let Some(t) = decls.iter().find(|t| t.is_function && t.mixed) {
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                Span::new(t.start, t.end),
                format!("`{name}` is declared together with variables; a device function needs a declaration of its own"),
            )
            .with_label("function and variables in one declaration")
            .with_help(format!("declare `{name}` in a separate declaration")),
        );
        return None;
    }
    let decl_starts = decls
        .iter()
        .filter(|t| t.is_function)
        .map(|t| t.start)
        .collect();
    Some(DeviceFn {
        name: name.to_string(),
        spec,
        rule,
        decl_starts,
        var_uses: Vec::new(),
        body: decls.iter().find_map(|t| t.body),
    })
}

/// Adds the functions defined in this file that offloaded code calls
/// (transitively: calls inside device functions too; sema::calls reports the
/// calls the device cannot make), then finds the uses of device variables in
/// every device function's body.
pub fn add_called(
    plan: &mut DeclarePlan,
    file: &SourceFile,
    tree: &CTree,
    region_calls: &[(String, Span)],
    diags: &mut Vec<Diagnostic>,
) {
    let Some(root) = tree.root() else {
        return;
    };
    let text = file.text.as_str();
    let tops = top_level(root, text);
    // The body of `name`'s definition and its parameter names.
    let body_of = |name: &str| -> Option<(Span, Vec<String>)> {
        let t = tops.get(name)?.iter().find(|t| t.is_definition)?;
        let body = t.body?;
        let mut def = root.descendant_for_byte_range(t.start, t.end)?;
        while def.kind() != "function_definition" {
            def = def.parent()?;
        }
        Some((body, symbols::param_names(def, text)))
    };
    // The explicit device functions defined here are roots as well: their
    // calls and their file-scope variables are checked like a region's.
    let mut roots: Vec<(String, Span)> = region_calls.to_vec();
    for f in &plan.fns {
        if let Some(start) = tops
            .get(&f.name)
            .and_then(|d| d.iter().find(|t| t.is_definition))
            .map(|t| t.start)
        {
            roots.push((f.name.clone(), Span::new(start, start)));
        }
    }
    let visible = |name: &str, at: Span| -> Option<crate::sema::Symbol> {
        let node = root.descendant_for_byte_range(at.start, at.end)?;
        let mut s = symbols::visible_at(root, text, node).get(name)?.clone();
        // A function designator is not a pointer variable.
        if matches!(s.ty.derivs.first(), Some(crate::sema::Deriv::Function)) {
            s.ty.derivs.truncate(1);
        } else if s.ty.is_function() {
            s.ty.derivs
                .retain(|d| !matches!(d, crate::sema::Deriv::Function));
        }
        Some(s)
    };
    let device_vars: BTreeSet<String> = plan.vars.iter().map(|v| v.name.clone()).collect();
    let reached = calls::device_functions(root, text, &roots, &visible, &device_vars, diags);
    for f in reached {
        if f.name == "main" || plan.fns.iter().any(|g| g.name == f.name) {
            continue;
        }
        let Some(decls) = tops.get(&f.name) else {
            continue;
        };
        let rule =
            "called from an offloaded region or a device function (implicitly a device function)"
                .to_string();
        if let Some(d) = device_fn(
            &f.name,
            decls,
            "__host__ __device__",
            rule,
            f.name_span,
            diags,
        ) {
            plan.fns.push(d);
        }
    }
    plan.fns.sort_by(|a, b| a.name.cmp(&b.name));
    // Device variables named in device function bodies.
    if device_vars.is_empty() {
        return;
    }
    for f in &mut plan.fns {
        let Some((body, params)) = body_of(&f.name) else {
            continue;
        };
        let Some(n) = root.descendant_for_byte_range(body.start, body.end) else {
            continue;
        };
        f.var_uses = uses::free_occurrences(n, text, &params)
            .into_iter()
            .filter(|(name, _)| device_vars.contains(name))
            .collect();
    }
}
