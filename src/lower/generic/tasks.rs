//! Tasks and the constructs around them in a generic-mode region, and
//! `scope` and `flush` (seed 004: tasks, taskwait, taskyield; flush as a
//! full fence).
//!
//! Every task is an *included* task: the thread that encounters `task`
//! runs it at once, where it is written, and a `taskloop` runs its
//! iterations in order on the encountering thread (one task of all the
//! iterations, which the specification allows when neither `grainsize` nor
//! `num_tasks` fixes the count). Tasks then complete in creation order,
//! which satisfies every dependence between sibling tasks (`depend` of any
//! kind, `mutexinoutset`, `omp_all_memory`), and `taskwait`, `taskyield`
//! and the end of a `taskgroup` have nothing left to wait for. What a task
//! must still honour is its data environment: `private` and `firstprivate`
//! items, and the variables the task references that are private to the
//! encountering thread (declared in the parallel region or the sequential
//! part, or privatized by the construct around it), which are firstprivate
//! by default. They get their own copies in a block around the task's
//! statement; shared variables (declared outside the parallel region,
//! mapped, static) are the originals.
//!
//! `scope` in a parallel region: every thread runs it with its own copies,
//! then a team barrier unless `nowait`. `flush`: `__threadfence()`.
//! `master taskloop` / `masked taskloop`: the masked region around the
//! included taskloop; `parallel master taskloop [simd]` in the sequential
//! part: a team of one thread whose master runs it (no `filter`,
//! `copyin`, `reduction` on it).
//!
//! `in_reduction(op: x)` on a task or taskloop whose enclosing construct in
//! the region has `reduction(task, op: x)`: the included task updates the
//! encountering thread's reduction copy of `x` in place.
//!
//! Refused (E0901): other `in_reduction`, `task_reduction`, `detach`, `allocate`,
//! `reduction` on a taskloop or scope; a taskloop whose loop variable is
//! declared before the loop, or with `grainsize` / `num_tasks` and
//! firstprivate copies (each task would start from the original value);
//! a variable the task would copy that its statement declares again.

use super::construct::Construct;
use super::nested_clauses::privates;
use super::nested_constructs::NestedParts;
use super::syntax::{declared_in, node_at};
use super::{not_supported, Ctx};
use crate::directives::{ClauseArgs, Directive};
use crate::front::c::Node;
use crate::front::Attached;
use crate::ir::generic::{InOrderPrivates, PrivKind, PrivVar, Serial, SerialKind};
use crate::sema::symbols::{self, Storage};
use crate::source::Span;

/// The directives this module lowers.
pub(super) fn handles(name: &str) -> bool {
    matches!(
        name,
        "task"
            | "taskloop"
            | "taskloop simd"
            | "master taskloop"
            | "master taskloop simd"
            | "masked taskloop"
            | "masked taskloop simd"
            | "parallel master taskloop"
            | "parallel master taskloop simd"
            | "parallel masked taskloop"
            | "parallel masked taskloop simd"
            | "taskwait"
            | "taskyield"
            | "taskgroup"
            | "scope"
            | "flush"
    )
}

/// Where the directive is: inside a fork (and whether that fork is a
/// loop), the fork's statement and the names its threads own.
pub(super) struct Place<'p> {
    pub in_fork: bool,
    pub fork_is_loop: bool,
    pub fork_ctx: Option<Span>,
    pub fork_own: &'p [String],
}

/// Lowers one directive of `handles`.
pub(super) fn lower(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    parts: &mut NestedParts,
    na: &Attached,
    at: Place<'_>,
) {
    let nd = &na.directive;
    let name = nd.name.as_str();
    if !clauses_ok(cx, nd) || !in_reduction_ok(cx, rc, nd) {
        return;
    }
    let in_loop = at.fork_is_loop
        || parts
            .inner_loops
            .iter()
            .any(|(_, w)| nd.span.within(w.stmt))
        || parts.master_loops.iter().any(|w| nd.span.within(w.stmt));
    match name {
        "flush" => {
            parts.serials.push(Serial {
                kind: SerialKind::Flush,
                pragma: nd.span,
                stmt: Span::new(nd.span.end, nd.span.end),
                in_fork: at.in_fork,
            });
            return;
        }
        "taskwait" => {
            parts.stripped.push((
                nd.span,
                "taskwait: every task ran to completion where it was created (included tasks)",
            ));
            return;
        }
        "taskyield" => {
            parts
                .stripped
                .push((nd.span, "taskyield: no other task to run (included tasks)"));
            return;
        }
        _ => {}
    }
    let Some(stmt) = na.stmt else {
        return;
    };
    let Some(node) = node_at(cx.tree, stmt) else {
        return;
    };
    // `parallel master taskloop` in the sequential part: a team of one
    // thread, its master, runs the included taskloop (`roles.rs`).
    let masked = name.starts_with("master ")
        || name.starts_with("masked ")
        || name.starts_with("parallel master ")
        || name.starts_with("parallel masked ");
    if in_loop && (masked || name == "scope") {
        cx.diags.push(not_supported(
            nd.name_span,
            format!("`omp {name}` inside a worksharing or distribute loop is not supported yet"),
        ));
        return;
    }
    let mut copies: Vec<PrivVar> = privates(cx, nd, node, Some(node))
        .into_iter()
        .filter(|p| !matches!(p.kind, PrivKind::Lastprivate { .. }))
        .collect();
    if name.contains("task") && name != "taskgroup" {
        let Some(implicit) = implicit_copies(cx, rc, nd, node, &at, &copies) else {
            return;
        };
        copies.extend(implicit);
    }
    if name.contains("taskloop") && !taskloop_ok(cx, nd, node, &copies) {
        return;
    }
    if masked {
        let filter = nd.clause("filter").and_then(|c| match &c.args {
            ClauseArgs::Expr { expr, .. } => Some(expr.span),
            _ => None,
        });
        parts.serials.push(Serial {
            kind: SerialKind::Masked { filter },
            pragma: nd.span,
            stmt,
            in_fork: at.in_fork,
        });
    } else if name == "scope" && at.in_fork {
        parts.serials.push(Serial {
            kind: SerialKind::Scope {
                barrier: nd.clause("nowait").is_none(),
            },
            pragma: nd.span,
            stmt,
            in_fork: true,
        });
    } else {
        parts.stripped.push((nd.span, why(name)));
    }
    if !copies.is_empty() {
        parts.in_order_privates.push(InOrderPrivates {
            stmt,
            privates: copies,
        });
    }
}

/// The plan's words for a construct that runs as written.
fn why(name: &str) -> &'static str {
    match name {
        "task" => "task: an included task, run where it is created (creation order honours its dependences)",
        "taskgroup" => "taskgroup: its tasks are included tasks, complete where they are created",
        "scope" => "scope: the sequential part's one thread runs it",
        _ => "taskloop: included tasks, the encountering thread runs the iterations in order",
    }
}

/// The clauses an included task honours; every other one is refused.
fn clauses_ok(cx: &mut Ctx<'_>, nd: &Directive) -> bool {
    let mut ok = true;
    let task_common = |c: &str| {
        matches!(
            c,
            "private"
                | "firstprivate"
                | "shared"
                | "default"
                | "if"
                | "final"
                | "untied"
                | "mergeable"
                | "priority"
        )
    };
    for c in &nd.clauses {
        let n = c.name.as_str();
        let fine = match nd.name.as_str() {
            "flush" => matches!(n, "acq_rel" | "release" | "acquire" | "seq_cst"),
            "taskwait" => matches!(n, "depend" | "nowait"),
            "taskyield" | "taskgroup" => false,
            "scope" => matches!(n, "private" | "firstprivate" | "nowait"),
            "task" => task_common(n) || matches!(n, "depend" | "affinity" | "in_reduction"),
            name => {
                task_common(n)
                    || (n == "in_reduction" && !name.contains("master") && !name.contains("masked"))
                    || matches!(
                        n,
                        "lastprivate"
                            | "grainsize"
                            | "num_tasks"
                            | "collapse"
                            | "nogroup"
                            | "simdlen"
                            | "safelen"
                            | "aligned"
                            | "order"
                            | "nontemporal"
                    )
                    || (n == "filter" && name.starts_with("masked"))
                    || (name.starts_with("parallel ") && matches!(n, "num_threads" | "proc_bind"))
            }
        };
        if !fine {
            cx.diags.push(
                not_supported(
                    c.name_span,
                    format!(
                        "clause `{n}` on `omp {}` inside an offloaded region is not supported yet",
                        nd.name
                    ),
                )
                .with_note("tasks on the device are included tasks: run where they are created"),
            );
            ok = false;
        }
    }
    ok
}

/// `in_reduction(op: x)` of an included task: the task runs on the
/// encountering thread, whose copy of `x` is the private copy of the
/// enclosing `reduction(task, op: x)` (of the compute construct or of a
/// construct around the task inside the region): the task updates that
/// copy in place (no copy of its own), and the enclosing reduction
/// combines it as it combines the thread's other contributions. Lowered
/// when such an enclosing reduction with the same operator is found;
/// otherwise (a `taskgroup task_reduction`, an array section, a member) E0901.
fn in_reduction_ok(cx: &mut Ctx<'_>, rc: &Construct<'_>, nd: &Directive) -> bool {
    use crate::sema::sharing::red_op_with_modifier;
    let mut around: Vec<&Attached> = rc
        .nested
        .iter()
        .filter(|n| {
            n.stmt
                .is_some_and(|s| nd.span.within(Span::new(n.directive.span.start, s.end)))
                && n.directive.span != nd.span
        })
        .copied()
        .collect();
    around.sort_by_key(|n| n.directive.span.start);
    // Innermost first, the compute construct last.
    let enclosing: Vec<&Directive> = around
        .iter()
        .rev()
        .map(|n| &n.directive)
        .chain(rc.teams.map(|t| &t.directive))
        .chain(std::iter::once(rc.d))
        .collect();
    let mut ok = true;
    for c in nd.clauses_named("in_reduction") {
        let op = red_op_with_modifier(c.modifiers());
        for item in c.items() {
            let plain = item.path.is_empty() && item.sections.is_empty();
            let found = op.is_some() && plain && reduced_around(&enclosing, &item.name, op);
            if !found {
                cx.diags.push(
                    not_supported(
                        item.span,
                        format!(
                            "`in_reduction` on `{}` in `omp {}`, whose closest enclosing construct in the offloaded region that names it is not a `reduction(task, ...)` with the same operator, is not supported yet",
                            item.name, nd.name
                        ),
                    )
                    .with_note("lowered: `in_reduction` of a scalar that a `reduction(task, op: ...)` around the task inside the region reduces, with no other task or data-sharing clause on it in between"),
                );
                ok = false;
            }
        }
    }
    ok
}

/// Whether the closest of `enclosing` (innermost first) that names `name`
/// or generates tasks reduces it with `reduction(task, op: ...)`; an
/// enclosing task with the same `in_reduction` passes the question on.
fn reduced_around(enclosing: &[&Directive], name: &str, op: Option<crate::ir::c::RedOp>) -> bool {
    use crate::sema::sharing::red_op_with_modifier;
    let names = |c: &crate::directives::Clause| c.items().iter().any(|i| i.name == name);
    for d in enclosing {
        let reduced = d.clauses_named("reduction").any(|r| {
            names(r)
                && r.modifiers().first().is_some_and(|m| m.text == "task")
                && red_op_with_modifier(r.modifiers()) == op
        });
        if reduced {
            return true;
        }
        let passes_on = d
            .clauses_named("in_reduction")
            .any(|r| names(r) && red_op_with_modifier(r.modifiers()) == op);
        let named = d.clauses.iter().any(|c| {
            matches!(
                c.name.as_str(),
                "private"
                    | "firstprivate"
                    | "lastprivate"
                    | "reduction"
                    | "linear"
                    | "task_reduction"
            ) && names(c)
        });
        let tasking = d.name.contains("task")
            && !matches!(d.name.as_str(), "taskgroup" | "taskwait" | "taskyield");
        if !passes_on && (named || tasking) {
            return false;
        }
    }
    false
}

/// The variables the task references that it must copy: every one with
/// `default(firstprivate)` / `default(private)`, else those private to the
/// encountering thread (firstprivate by default). `None` when refused.
fn implicit_copies(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    nd: &Directive,
    node: Node<'_>,
    at: &Place<'_>,
    explicit: &[PrivVar],
) -> Option<Vec<PrivVar>> {
    let default = nd
        .clause("default")
        .and_then(|c| c.keyword().map(|k| k.trim().to_string()));
    if matches!(default.as_deref(), Some("shared" | "none")) {
        return Some(vec![]);
    }
    let listed: Vec<String> = nd
        .clauses
        .iter()
        .filter(|c| {
            matches!(
                c.name.as_str(),
                "private"
                    | "firstprivate"
                    | "lastprivate"
                    | "shared"
                    | "reduction"
                    | "in_reduction"
            )
        })
        .flat_map(|c| c.items().iter().map(|i| i.name.clone()).collect::<Vec<_>>())
        .collect();
    let root = cx.tree.root()?;
    let syms = symbols::visible_at(root, rc.text, node);
    let mut inner = Vec::new();
    declared_in(node, rc.text, &mut inner);
    let mut names = Vec::new();
    identifiers(node, rc.text, &mut names);
    let construct_private: Vec<String> =
        rc.d.clauses
            .iter()
            .filter(|c| matches!(c.name.as_str(), "private" | "firstprivate"))
            .flat_map(|c| c.items().iter().map(|i| i.name.clone()).collect::<Vec<_>>())
            .collect();
    let mapped = |n: &str| {
        rc.d.clauses
            .iter()
            .filter(|c| matches!(c.name.as_str(), "map" | "is_device_ptr" | "has_device_addr"))
            .any(|c| c.items().iter().any(|i| i.name == n))
    };
    let mut out: Vec<PrivVar> = Vec::new();
    for (name, span) in names {
        if listed.contains(&name)
            || explicit.iter().any(|p| p.name == name)
            || out.iter().any(|p| p.name == name)
        {
            continue;
        }
        let Some(sym) = syms.get(&name).filter(|s| {
            !s.is_typedef
                && !s.ty.is_function()
                && !s.is_static
                && !s.is_extern
                && s.storage != Storage::Global
        }) else {
            continue;
        };
        let kind = match default.as_deref() {
            Some("private") => PrivKind::Private,
            Some("firstprivate") => PrivKind::Firstprivate,
            _ => {
                let private_here = match at.fork_ctx {
                    Some(f) => sym.decl_span.within(f) || at.fork_own.contains(&name),
                    None => {
                        sym.decl_span.within(rc.block)
                            || construct_private.contains(&name)
                            || (!mapped(&name)
                                && sym.ty.is_scalar()
                                && rc.d.clause("defaultmap").is_none())
                    }
                };
                if !private_here {
                    continue;
                }
                PrivKind::Firstprivate
            }
        };
        if inner.iter().any(|s| s.name == name) {
            cx.diags.push(not_supported(
                span,
                format!("a task that copies `{name}` (firstprivate by default) and declares another `{name}` inside is not supported yet"),
            ));
            return None;
        }
        out.push(PrivVar {
            name,
            ty: sym.ty.clone(),
            kind,
            span,
            assigns: vec![],
            section: None,
        });
    }
    Some(out)
}

/// The identifiers `n` uses, with their first span, in source order.
fn identifiers(n: Node<'_>, text: &str, out: &mut Vec<(String, Span)>) {
    if n.kind() == "identifier" {
        let t = text
            .get(n.start_byte()..n.end_byte())
            .unwrap_or("")
            .to_string();
        if !out.iter().any(|(x, _)| *x == t) {
            out.push((t, Span::new(n.start_byte(), n.end_byte())));
        }
        return;
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        identifiers(k, text, out);
    }
}

/// A taskloop's loops declare their variables (else the variable, private
/// to each task, would be the encountering thread's), and `grainsize` /
/// `num_tasks` come with no copies (each task would start from the
/// original values).
fn taskloop_ok(cx: &mut Ctx<'_>, nd: &Directive, node: Node<'_>, copies: &[PrivVar]) -> bool {
    let depth = nd
        .clause("collapse")
        .and_then(|c| c.expr())
        .and_then(|e| e.text.trim().parse::<usize>().ok())
        .unwrap_or(1);
    let mut loop_node = Some(node);
    for _ in 0..depth {
        let Some(l) = loop_node.filter(|l| l.kind() == "for_statement") else {
            cx.diags.push(not_supported(
                nd.name_span,
                format!(
                    "`omp {}` not followed by {depth} nested `for` loops is not supported yet",
                    nd.name
                ),
            ));
            return false;
        };
        if !l
            .child_by_field_name("initializer")
            .is_some_and(|i| i.kind() == "declaration")
        {
            cx.diags.push(not_supported(
                Span::new(l.start_byte(), l.end_byte()),
                format!("`omp {}` over a loop whose variable is declared before the loop is not supported yet", nd.name),
            ).with_help("declare the loop variable in the `for`: `for (int i = ...`"));
            return false;
        }
        loop_node = l.child_by_field_name("body").map(|b| {
            if b.kind() == "compound_statement" {
                let mut c = b.walk();
                let kids: Vec<Node<'_>> = b
                    .named_children(&mut c)
                    .filter(|k| k.kind() != "comment")
                    .collect();
                if kids.len() == 1 {
                    kids[0]
                } else {
                    b
                }
            } else {
                b
            }
        });
    }
    let counted = nd.clause("grainsize").or(nd.clause("num_tasks"));
    if let (Some(c), false) = (counted, copies.iter().all(|p| p.kind == PrivKind::Private)) {
        cx.diags.push(not_supported(
            c.span,
            format!("`{}` on a taskloop with firstprivate copies is not supported yet", c.name),
        ).with_note("its tasks run in order on one thread: each task would start from the original values"));
        return false;
    }
    true
}
