//! Building the region IR from an attached directive.

use super::reduction;
use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, Model};
use crate::front::{Attached, CTree};
use crate::ir::reduction::Strategy;
use crate::ir::{ArrayReduction, Reduction, Region, Schedule, Size};
use crate::sema::loops::{self, int_literal, CanonLoop};
use crate::sema::sharing::{self, Attr};
use crate::sema::{symbols, uses, CType};
use crate::source::pragma_text::pragma_one_line;
use crate::source::{SourceFile, Span};

/// The most blocks a region with reductions is launched with when the count
/// comes from the trip count (about one wave of 256-thread blocks on an
/// H100: 132 SMs x 8).
pub const MAX_REDUCTION_BLOCKS: u32 = 1024;

/// What the driver does with a directive.
pub enum Kind {
    /// An offloaded loop construct lowered to a kernel.
    Offload,
    /// A data construct: host code that maps, unmaps or updates data.
    Data(crate::ir::data::DataKind),
    /// Declarations for the device: `declare target`, `acc routine`, `acc
    /// declare` (at file scope; inside a function it is `Data`).
    Declare,
    /// Host-only OpenMP: the pragma stays as it is.
    HostPassthrough,
    /// Valid, but not lowered yet.
    NotSupported,
}

/// Classifies a directive for the driver. `in_function`: the pragma is inside
/// a function body (`acc declare` means a data region there).
pub fn classify(d: &Directive, in_function: bool) -> Kind {
    use crate::ir::data::DataKind;
    match d.model {
        Model::Omp => {
            if super::shape::omp_schedule(&d.name).is_some() {
                return Kind::Offload;
            }
            match d.name.as_str() {
                "target data" => return Kind::Data(DataKind::Region),
                "target enter data" => return Kind::Data(DataKind::Enter),
                "target exit data" => return Kind::Data(DataKind::Exit),
                "target update" => return Kind::Data(DataKind::Update),
                // Resolved at each call (`lower::declare_variant`).
                "declare variant" => return Kind::Declare,
                "declare target" | "begin declare target" | "end declare target" => {
                    return Kind::Declare
                }
                _ => {}
            }
            if d.words()
                .any(|w| matches!(w, "target" | "teams" | "distribute"))
                || d.name.starts_with("declare")
                || d.name.starts_with("begin declare")
                || d.name.starts_with("end declare")
                || d.name == "requires"
                // Both name a device the host OpenMP runtime knows nothing of.
                || matches!(d.name.as_str(), "interop" | "dispatch")
            {
                Kind::NotSupported
            } else {
                Kind::HostPassthrough
            }
        }
        Model::Acc => match d.name.as_str() {
            "parallel loop" | "kernels loop" | "serial loop" => Kind::Offload,
            "data" | "host_data" => Kind::Data(DataKind::Region),
            "enter data" => Kind::Data(DataKind::Enter),
            "exit data" => Kind::Data(DataKind::Exit),
            "update" => Kind::Data(DataKind::Update),
            "wait" => Kind::Data(DataKind::Wait),
            "set"
                if d.clause("default_async").is_some()
                    && d.clauses
                        .iter()
                        .all(|c| matches!(c.name.as_str(), "default_async" | "if")) =>
            {
                Kind::Data(DataKind::SetDefaultAsync)
            }
            "declare" if in_function => Kind::Data(DataKind::DeclareScope),
            "declare" | "routine" => Kind::Declare,
            "init" | "shutdown" | "set" => Kind::Data(DataKind::Runtime),
            _ => Kind::NotSupported,
        },
    }
}

/// Clauses the lowering understands, per model.
fn lowered_clause(model: Model, name: &str) -> bool {
    let common = ["private", "firstprivate", "reduction", "collapse", "if"];
    if common.contains(&name) || model == Model::Acc && name == "tile" {
        return true;
    }
    match model {
        Model::Omp => matches!(
            name,
            "map"
                | "num_teams"
                | "thread_limit"
                | "num_threads"
                | "nowait"
                | "depend"
                | "device"
                | "lastprivate"
                | "linear"
                | "defaultmap"
                | "shared"
                | "is_device_ptr"
                | "has_device_addr"
        ),
        Model::Acc => matches!(
            name,
            "copy"
                | "async"
                | "wait"
                | "copyin"
                | "copyout"
                | "create"
                | "present"
                | "pcopy"
                | "pcopyin"
                | "pcopyout"
                | "pcreate"
                | "present_or_copy"
                | "present_or_copyin"
                | "present_or_copyout"
                | "present_or_create"
                | "deviceptr"
                | "num_gangs"
                | "num_workers"
                | "vector_length"
                | "gang"
                | "worker"
                | "vector"
                | "seq"
                | "auto"
                | "independent"
        ),
    }
}

/// Clauses of the `loop` and `simd` forms that the lowering meets as it
/// stands: `bind` naming the binding the construct has, `order(concurrent)`
/// (iterations already run concurrently, each always on the same thread),
/// and the simd hints `simdlen`, `safelen`, `nontemporal`, `aligned`.
fn loop_form_clause(d: &Directive, c: &crate::directives::Clause) -> bool {
    if d.model != Model::Omp {
        return false;
    }
    match c.name.as_str() {
        "bind" => matches!(
            (d.name.as_str(), c.keyword()),
            ("target teams loop", Some("teams")) | ("target parallel loop", Some("parallel"))
        ),
        // The parser accepts no other kind than `concurrent`.
        "order" => super::shape::omp_schedule(&d.name).is_some(),
        // Hints and assertions that change no result: on `target simd`
        // (one thread, in order), and where the `for` leaf already lets
        // any iterations run concurrently (each a thread, or a chunk run in
        // order by one): `for simd`.
        "simdlen" | "safelen" | "nontemporal" | "aligned" => {
            d.name == "target simd" || d.name.ends_with(" for simd")
        }
        // `lower/chunk.rs` decides them (or refuses them with its reason).
        "schedule" | "dist_schedule" => super::shape::omp_schedule(&d.name).is_some(),
        _ => false,
    }
}

fn node_at<'t>(tree: &'t CTree, span: Span) -> Option<crate::front::c::Node<'t>> {
    let root = tree.root()?;
    let mut n = root.descendant_for_byte_range(span.start, span.end)?;
    while n.start_byte() == span.start && n.end_byte() == span.end {
        match n.parent() {
            Some(p) if p.start_byte() == span.start && p.end_byte() == span.end => n = p,
            _ => break,
        }
    }
    Some(n)
}

/// Lowers one offloaded loop construct. `kernel` is the name the namer chose;
/// `strategy` picks the expansions of the reduction builtins.
pub fn build_region(
    file: &SourceFile,
    tree: &CTree,
    at: &Attached,
    kernel: String,
    env: &sharing::DataEnv,
    strategy: Strategy,
    diags: &mut Vec<Diagnostic>,
) -> Option<Region> {
    let d = &at.directive;
    let errors_before = error_count(diags);
    refuse_unlowered_clauses(d, diags);
    let task_wait = super::asynchrony::omp_task_wait(d, &file.text, diags);
    // A loop construct with no loop is a validation error
    // (valid/loop_association.rs, E0205): it is never lowered.
    let stmt_span = at.stmt?;
    let stmt = parsed_statement(tree, d, stmt_span, diags)?;
    let (tile, nest, loop_vars, collapse_note) = loop_nest(file, d, stmt, diags)?;
    let symbols = symbols::visible_at(tree.root()?, &file.text, stmt);
    let nest_types = loop_variable_types(&nest, &symbols, diags)?;
    let (used, stmt_calls) = uses::free_identifiers(stmt, &file.text);
    let is_kernels = d.model == Model::Acc && d.name == "kernels loop";
    let mut vars = sharing::decide(
        d, is_kernels, &used, &symbols, &loop_vars, env, &file.text, diags,
    );
    super::default_private::apply(d, &mut vars, &symbols, diags);
    let linear = super::linear::apply(d, &mut vars, &loop_vars, &symbols, diags)?;
    super::device_complex::refuse(
        d,
        &vars,
        &symbols,
        &file.text[stmt_span.start..stmt_span.end],
        stmt_span.start,
        diags,
    );
    super::device_long_double::refuse(
        d,
        &vars,
        &symbols,
        &file.text[stmt_span.start..stmt_span.end],
        stmt_span.start,
        diags,
    );
    let shared_notes = shared_on_combined(d, &vars, stmt, &stmt_calls, &file.text, diags);
    let hoisted = local_types(file, at, &symbols, &mut vars, &kernel, stmt_span, diags);
    let (reductions, array_reductions) = reductions_of(&vars, diags);
    let mut notes: Vec<String> = collapse_note.into_iter().collect();
    notes.extend(shared_notes);
    let shape = match d.model {
        Model::Omp => super::shape::omp(d)?,
        Model::Acc => super::shape::acc(d, &mut notes),
    };
    super::shape::check_block_size(d, &shape, diags);
    let chunk = match d.model {
        Model::Omp => super::chunk::decide_spmd(file, d, shape.schedule, !tile.is_empty(), diags),
        Model::Acc => None,
    };
    notes.extend(super::chunk::describe(d, &chunk));
    if error_count(diags) > errors_before {
        return None;
    }
    let if_cond = launch_condition(file, d, diags)?;
    let (function, function_start) = at
        .function
        .clone()
        .map(|(n, s)| (n, s.start))
        .unwrap_or_default();
    let body = nest.last().map(|l| l.body).unwrap_or(stmt_span);
    refuse_collapsed_lastprivate(&vars, &nest, diags)?;
    let lastprivate_assigns = conditional_lastprivate_assignments(file, tree, body, &vars);
    // Loop bounds and steps are evaluated on the host; the kernel needs only
    // what the innermost body names.
    let (body_uses, calls) = node_at(tree, body)
        .map(|b| uses::free_identifiers(b, &file.text))
        .unwrap_or_else(|| (used.clone(), Vec::new()));
    let body_names: std::collections::BTreeSet<String> =
        body_uses.into_iter().map(|u| u.name).collect();
    let array_privates = super::privarray::loop_copies(&vars, &if_cond, diags)?;
    let narrow_counter = super::counter::narrow_nest(&nest_types)
        || super::counter::narrow_const_nest(
            &nest_types,
            &nest,
            &crate::sema::visible::memo_for_text(&file.text, || {
                crate::sema::layout::Consts::from_text(&file.text)
            }),
            &file.text,
        );
    let mut region = Region {
        model: d.model,
        construct: d.name.clone(),
        pragma_text: written_pragma(file.slice(d.span), d),
        pragma: d.span,
        stmt: stmt_span,
        function,
        function_start,
        line: file.origin(d.span.start).1,
        kernel,
        schedule: shape.schedule,
        chunk,
        levels: shape.levels,
        blocks: shape.blocks,
        // A reduction's last block reads one partial per block: a grid-stride
        // loop needs no more blocks than fill the GPU, so cap them.
        max_blocks: if reductions.is_empty() && array_reductions.is_empty() {
            65535
        } else {
            MAX_REDUCTION_BLOCKS
        },
        threads_x: shape.threads_x,
        threads_y: shape.threads_y,
        nest,
        narrow_counter,
        nest_types,
        body,
        body_names,
        calls,
        vars,
        reductions,
        array_privates,
        local_types: hoisted,
        array_reductions,
        red: Default::default(),
        if_cond,
        device_check: None,
        notes,
        generic: None,
        lastprivate_assigns,
        linear,
        atomics: vec![],
        in_order: vec![],
        tile: vec![],
        task_wait,
        omp_task: super::asynchrony::omp_target_task(d, &file.text),
        reduction_task: None,
        acc_queue: super::asynchrony::acc_queue(d),
    };
    if !tile.is_empty() {
        apply_tile(d, &mut region, tile, diags)?;
    }
    region.red = reduction::build(&region, strategy);
    Some(region)
}

fn error_count(diags: &[Diagnostic]) -> usize {
    diags.iter().filter(|x| x.is_error()).count()
}

/// Clauses the lowering does not understand, and `gang` / `worker` /
/// `vector` with arguments. (`copyin` is a validation error.)
fn refuse_unlowered_clauses(d: &Directive, diags: &mut Vec<Diagnostic>) {
    super::asynchrony::check_arguments(d, diags);
    if d.model == Model::Omp {
        super::allocators::check(d, diags);
    }
    for c in &d.clauses {
        if d.model == Model::Omp && c.name == "copyin" {
            // valid/copyin_on_device.rs reports it (E0451).
            continue;
        }
        if d.model == Model::Omp && super::allocators::is_allocator_clause(&c.name) {
            continue;
        }
        // `default(shared)` is the implicit rule of the teams and parallel
        // leaves, and `default(none)` only asks for listings that
        // valid/default_none.rs checked: neither changes the lowering.
        // `default(private | firstprivate)`: lower/default_private.rs.
        // OpenACC `default(none)` only asks for listings (validation) and
        // `default(present)` is an implicit rule of sema/sharing.rs.
        let default_kept = c.name == "default"
            && match d.model {
                Model::Omp => {
                    matches!(c.keyword(), Some("shared") | Some("none"))
                        || super::default_private::lowered(d)
                }
                Model::Acc => matches!(c.keyword(), Some("none") | Some("present")),
            };
        if !lowered_clause(d.model, &c.name) && !loop_form_clause(d, c) && !default_kept {
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
    }
    for c in d
        .clauses_named("gang")
        .chain(d.clauses_named("worker"))
        .chain(d.clauses_named("vector"))
    {
        if !matches!(c.args, crate::directives::ClauseArgs::None) {
            diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    c.span,
                    format!("arguments of `{}` are not supported yet", c.name),
                )
                .with_label("not lowered yet")
                .with_help("use num_gangs / num_workers / vector_length on the construct"),
            );
        }
    }
}

/// The statement's syntax node, unless tree-sitter found an error in it.
fn parsed_statement<'t>(
    tree: &'t CTree,
    d: &Directive,
    stmt_span: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<crate::front::c::Node<'t>> {
    let stmt = node_at(tree, stmt_span)?;
    if stmt.has_error() {
        diags.push(
            Diagnostic::new(
                codes::C_PARSE,
                stmt_span,
                "the C code of this region could not be parsed; no code is generated for it",
            )
            .with_label("syntax error in here")
            .with_secondary(d.span, "region begins here"),
        );
        return None;
    }
    Some(stmt)
}

/// The loop nest (`tile(...)`: one loop per size, lower/tile.rs): the tile
/// sizes, the collapsed loops, every loop's variable and the note for a
/// non-rectangular nest.
#[allow(clippy::type_complexity)]
fn loop_nest(
    file: &SourceFile,
    d: &Directive,
    stmt: crate::front::c::Node<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Vec<u64>, Vec<CanonLoop>, Vec<String>, Option<String>)> {
    let tile = match super::tile::sizes(d) {
        Ok(t) => t,
        Err(e) => {
            diags.push(*e);
            return None;
        }
    };
    if super::collapse::refuse_force(d, diags) {
        return None;
    }
    let depth = match d.clause("collapse").and_then(|c| c.expr()) {
        None if !tile.is_empty() => tile.len(),
        None => 1,
        Some(e) => match int_literal(&e.text) {
            Some(v) if (1..=8).contains(&v) => v as usize,
            _ => {
                diags.push(
                    Diagnostic::new(
                        codes::BAD_CLAUSE_ARG,
                        e.span,
                        "collapse takes a constant positive integer",
                    )
                    .with_label("not a constant from 1 to 8"),
                );
                return None;
            }
        },
    };
    let asked = d.clause("collapse").map(|c| c.span).unwrap_or(d.span);
    let what = format!("collapse({depth})");
    let mut nest: Vec<CanonLoop> = match loops::nest(
        stmt,
        &file.text,
        depth,
        &what,
        asked,
        "collapse asked for here",
    ) {
        Ok(n) => n,
        Err(e) => {
            diags.push(e);
            return None;
        }
    };
    // A non-rectangular nest collapses its rectangular prefix; the other
    // loops run in order (lower/collapse.rs). Their variables stay loop
    // variables (predetermined private).
    let loop_vars: Vec<String> = nest.iter().map(|l| l.var.clone()).collect();
    let kept = super::collapse::rectangular_prefix(&nest);
    let collapse_note = (kept < nest.len()).then(|| super::collapse::note(&nest, kept));
    nest.truncate(kept);
    Some((tile, nest, loop_vars, collapse_note))
}

/// The unqualified scalar type of each collapsed loop's variable (E0302
/// when one is not declared).
fn loop_variable_types(
    nest: &[CanonLoop],
    symbols: &crate::sema::symbols::Scope,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<CType>> {
    let mut nest_types = Vec::new();
    for l in nest {
        let ty = match &l.declared_type {
            Some(t) => t.clone(),
            None => match symbols.get(&l.var) {
                Some(s) if s.ty.is_scalar() => s.ty.clone(),
                _ => {
                    diags.push(
                        Diagnostic::new(
                            codes::UNDECLARED,
                            l.var_span,
                            format!("loop variable `{}` is not declared", l.var),
                        )
                        .with_label("no declaration visible"),
                    );
                    return None;
                }
            },
        };
        nest_types.push(CType {
            base: ty.unqualified_base(),
            derivs: vec![],
        });
    }
    Some(nest_types)
}

/// The scalar and the array reductions of the region's variables, numbered
/// in that order.
fn reductions_of(
    vars: &[sharing::VarAttr],
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Reduction>, Vec<ArrayReduction>) {
    let mut reductions = Vec::new();
    for v in vars {
        if let Attr::Reduction { op, arith, map } = v.attr {
            reductions.push(Reduction {
                var: v.sym.name.clone(),
                ty: v.sym.ty.clone(),
                arith,
                op,
                map,
                rid: reductions.len() as u32,
                span: v.span,
            });
        }
    }
    let mut array_reductions = Vec::new();
    for v in vars {
        if let Attr::ArrayReduction {
            op,
            arith,
            sections,
        } = &v.attr
        {
            let name = &v.sym.name;
            let b = match super::reduction::array_bounds::bounds(name, &v.sym.ty, sections, v.span)
            {
                Ok(b) => b,
                Err(e) => {
                    diags.push(*e);
                    continue;
                }
            };
            let (lo, len, text) = (b.lo, b.len, b.text);
            array_reductions.push(ArrayReduction {
                var: name.clone(),
                ty: v.sym.ty.clone(),
                arith: *arith,
                op: *op,
                lo,
                len,
                text,
                rid: 0,
                span: v.span,
            });
        }
    }
    for (i, a) in array_reductions.iter_mut().enumerate() {
        a.rid = (reductions.len() + i) as u32;
    }
    (reductions, array_reductions)
}

/// The host condition of the launch: `if(...)`, and `device(n)`
/// (`device_clause`: 0 is the GPU; the host's device number runs the loop
/// on the host, like if(false); any other number is a runtime error).
/// `None` when the `device` modifier is not lowered; `Some(None)` when the
/// region always runs on the GPU.
fn launch_condition(
    file: &SourceFile,
    d: &Directive,
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<String>> {
    let if_cond = d
        .clause("if")
        .and_then(|c| c.expr())
        .map(|e| e.text.clone());
    let dev = super::device_clause::device_arg(file, d, diags)?;
    Some(match dev {
        None => if_cond,
        Some(dev) => {
            let check = super::device_clause::with_host(&dev);
            Some(match if_cond {
                Some(c) => format!("({c}) && {check}"),
                None => check,
            })
        }
    })
}

/// E0901 for `lastprivate(conditional:)` of a loop variable of a collapsed
/// nest (a plain `lastprivate` of one gets the value after the nest:
/// each loop's bound plus its trip count times its step, emit/region.rs).
fn refuse_collapsed_lastprivate(
    vars: &[sharing::VarAttr],
    nest: &[CanonLoop],
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    for v in vars {
        if matches!(v.attr, Attr::Lastprivate { conditional: true })
            && nest.len() > 1
            && nest.iter().any(|l| l.var == v.sym.name)
        {
            diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    v.span,
                    "lastprivate(conditional:) of a loop variable of a collapsed nest is not supported yet",
                )
                .with_label("not lowered yet"),
            );
            return None;
        }
    }
    Some(())
}

/// lastprivate(conditional:): per such variable (its index in `vars`), the
/// assignments in the body whose iteration is recorded.
fn conditional_lastprivate_assignments(
    file: &SourceFile,
    tree: &CTree,
    body: Span,
    vars: &[sharing::VarAttr],
) -> Vec<(usize, Vec<Span>)> {
    let mut lastprivate_assigns = Vec::new();
    if let Some(b) = node_at(tree, body) {
        for (i, v) in vars.iter().enumerate() {
            if v.attr == (Attr::Lastprivate { conditional: true }) {
                let mut spans = Vec::new();
                crate::lower::generic::assignments_to(b, &file.text, &v.sym.name, &mut spans);
                lastprivate_assigns.push((i, spans));
            }
        }
    }
    lastprivate_assigns
}

/// `tile(...)`: a tile per block, an element per thread (lower/tile.rs);
/// E0901 for the combinations not lowered yet.
fn apply_tile(
    d: &Directive,
    region: &mut Region,
    tile: Vec<u64>,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    let why = if d.clause("collapse").is_some() {
        Some("`tile` with `collapse` on one construct is not supported yet")
    } else if region.nest.len() != tile.len() {
        Some("`tile` over a non-rectangular loop nest is not supported yet")
    } else if region
        .vars
        .iter()
        .any(|v| matches!(v.attr, Attr::Lastprivate { .. }))
    {
        Some("`tile` with `lastprivate` is not supported yet")
    } else {
        None
    };
    if let Some(why) = why {
        let at = d.clause("tile").map(|c| c.span).unwrap_or(d.span);
        diags.push(Diagnostic::new(codes::NOT_SUPPORTED, at, why).with_label("not lowered yet"));
        return None;
    }
    let e = crate::ir::tile_elements(&tile);
    let sized = ["vector_length", "num_workers", "worker"]
        .iter()
        .any(|c| d.clause(c).is_some());
    if region.schedule == Schedule::GridStride && !sized && e % 32 == 0 && e <= 1024 {
        region.threads_x = Size::Fixed(e as u32);
        region.threads_y = Size::Fixed(1);
    }
    let shown: Vec<String> = tile.iter().map(|t| t.to_string()).collect();
    region.notes.push(format!(
        "tile: tiles of {} iterations (outermost loop first) to blocks, a tile's elements to threads",
        shown.join(" x ")
    ));
    region.tile = tile;
    Some(())
}

/// Kernels live at file scope: a variable whose type is defined inside the
/// function cannot be passed to one (E0303). Generic-mode regions
/// (`generic/`) check the same.
/// A firstprivate or mapped variable of a local struct or union type gets
/// a file-scope copy of the definition instead (`localtype.rs`).
pub(crate) fn local_types(
    file: &SourceFile,
    at: &Attached,
    symbols: &crate::sema::symbols::Scope,
    vars: &mut [sharing::VarAttr],
    kernel: &str,
    body: Span,
    diags: &mut Vec<Diagnostic>,
) -> Vec<crate::ir::localtype::Hoisted> {
    let mut hoisted = Vec::new();
    let func_text = at
        .function
        .as_ref()
        .map(|(_, s)| file.slice(*s))
        .unwrap_or("");
    for v in vars {
        let base = &v.sym.ty.base.clone();
        let tag_defined_locally = base
            .strip_prefix("struct ")
            .or_else(|| base.strip_prefix("union "))
            .or_else(|| base.strip_prefix("enum "))
            .map(|tag| {
                let tag = tag.trim();
                ["struct", "union", "enum"].iter().any(|kw| {
                    func_text.contains(&format!("{kw} {tag} {{"))
                        || func_text.contains(&format!("{kw} {tag}{{"))
                })
            })
            .unwrap_or(false);
        let local_typedef = symbols.locals().any(|s| {
            s.is_typedef
                && s.storage != symbols::Storage::Global
                && base.split_whitespace().any(|w| w == s.name)
        });
        if tag_defined_locally || local_typedef || base.contains('{') {
            let body_text = file.slice(body);
            if let Some(h) =
                super::localtype::hoist(v, kernel, func_text, body_text, symbols, &hoisted)
            {
                hoisted.push(h);
                continue;
            }
        }
        if base.contains('{') || tag_defined_locally || local_typedef {
            diags.push(
                Diagnostic::new(codes::UNSUPPORTED_TYPE, v.span, format!("the type of `{}` is defined inside the function, so a kernel cannot name it", v.sym.name))
                    .with_label("used in an offloaded region")
                    .with_secondary(v.sym.decl_span, "type defined here")
                    .with_help("move the type definition to file scope"),
            );
        }
    }
    hoisted
}

/// The pragma as written, on one line; for a pragma that comes from a macro
/// (the span is the macro use) the use and the pragma it stands for.
fn written_pragma(text: &str, d: &Directive) -> String {
    let t = text.trim_start();
    if t.starts_with('#') || t.starts_with("_Pragma") {
        pragma_one_line(text)
    } else {
        pragma_one_line(&format!("{text} = #pragma {}", crate::directives::print(d)))
    }
}

/// `shared(list)` on a combined OpenMP construct (`target teams distribute`,
/// `target parallel for`, ...). OpenMP 5.2 applies `shared` to the leaf
/// constructs that permit it (teams, parallel), not to `target`, whose
/// implicit rules (or `map` / `defaultmap`) still decide the device copy:
/// a mapped variable has one device copy every thread shares, which is the
/// lowering already. A scalar left firstprivate on `target` is one copy
/// shared by the teams in OpenMP but a by-value kernel parameter here: the
/// same while nobody writes it. A write is the same too when the loop has
/// no synchronization (no nested directive, no call but the device library
/// and the runtime's queries): the target's copy dies with the region, and
/// only a data race could let one thread read another's write, so each
/// thread's copy (a thread keeps its own writes, in order) is all a
/// race-free program can observe. A write in a loop that synchronizes, or
/// `&x`, is refused. Returns the plan's notes for the writes accepted.
fn shared_on_combined(
    d: &Directive,
    vars: &[sharing::VarAttr],
    stmt: crate::front::c::Node<'_>,
    calls: &[(String, Span)],
    text: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let mut notes = Vec::new();
    for c in d.clauses.iter().filter(|c| c.name == "shared") {
        for item in c.items() {
            let Some(v) = vars.iter().find(|v| v.sym.name == item.name) else {
                continue; // not used in the region
            };
            if v.attr != Attr::Firstprivate {
                continue;
            }
            let mut writes = Vec::new();
            super::generic::assignments_to(stmt, text, &item.name, &mut writes);
            let body = text.get(stmt.start_byte()..stmt.end_byte()).unwrap_or("");
            let addr = body.match_indices('&').any(|(i, _)| {
                body[i + 1..].trim_start().starts_with(item.name.as_str())
                    && !body[i + 1..].trim_start()[item.name.len()..]
                        .starts_with(|ch: char| ch.is_ascii_alphanumeric() || ch == '_')
            });
            if writes.is_empty() && !addr {
                continue;
            }
            if !addr && !synchronizes(stmt, calls, text) {
                notes.push(format!(
                    "`{}` is shared on the teams / parallel part but firstprivate on `target` and written in the loop: each thread keeps its own copy from the host value (the loop does not synchronize, so no thread can see another's write without a data race; the target's copy is discarded at the end)",
                    item.name
                ));
                continue;
            }
            diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    item.span,
                    format!(
                        "`{}` is shared by the threads but firstprivate on `target`, and written in a loop that synchronizes (or its address is taken); this is not supported yet",
                        item.name
                    ),
                )
                .with_label("not lowered yet")
                .with_note("OpenMP applies `shared` to the teams / parallel part of the combined construct; `target` keeps its implicit rule for the scalar (firstprivate)")
                .with_help(format!("map it: `map(tofrom: {})` or `defaultmap(tofrom: scalar)`", item.name)),
            );
        }
    }
    notes
}

/// Whether a loop may synchronize its threads: a nested directive (atomic,
/// critical, flush, ordered, ...) or a call of anything but the device
/// library and the runtime's queries (a user function may do either).
fn synchronizes(stmt: crate::front::c::Node<'_>, calls: &[(String, Span)], text: &str) -> bool {
    let body = text.get(stmt.start_byte()..stmt.end_byte()).unwrap_or("");
    !crate::source::mask::find_pragmas(body).is_empty()
        || calls
            .iter()
            .any(|(name, _)| !crate::sema::device_lib::is_device_callable(name))
}
