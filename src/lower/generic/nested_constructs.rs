//! Phase 4: the directives nested in the block, in source order. Each gets
//! its role in the region (a fork, a loop of the sequential part, a
//! worksharing loop inside a fork, code run in order, a barrier), its
//! clauses are checked, and forks and loops are built with their loop
//! nests, private items and reductions. A directive is lowered after the
//! ones before it because its role depends on the fork around it.

use super::construct::Construct;
use super::construct_reductions::{implicit_reductions, of_construct, ConstructReds};
use super::nested_clauses::{loop_nest, privates, reductions};
use super::roles::{nested_clause_ok, role, Role};
use super::syntax::node_at;
use super::{not_supported, Ctx};
use crate::diag::{codes, Diagnostic};
use crate::directives::{ClauseArgs, Directive, Model};
use crate::front::c::Node;
use crate::front::Attached;
use crate::ir::generic::{
    Fork, GenKind, GenRed, InOrderPrivates, PrivKind, Serial, Spread, WsLoop,
};
use crate::lower::reduction::array_generic;
use crate::sema::symbols;
use crate::source::{SourceFile, Span};

/// What the nested directives became.
pub(super) struct NestedParts {
    pub forks: Vec<Fork>,
    /// Loops of the sequential part.
    pub master_loops: Vec<WsLoop>,
    /// Worksharing loops inside forks: (fork id, loop).
    pub inner_loops: Vec<(u32, WsLoop)>,
    /// Pragmas whose construct runs as plain code: (pragma, why).
    pub stripped: Vec<(Span, &'static str)>,
    /// See `Generic::in_order_privates`.
    pub in_order_privates: Vec<InOrderPrivates>,
    /// Barrier pragmas: (pragma, inside a fork).
    pub barriers: Vec<(Span, bool)>,
    /// `single`, `master`, `masked`, `critical` (`serial.rs`).
    pub serials: Vec<Serial>,
    /// See `Generic::construct_red_uses`.
    pub construct_red_uses: Vec<(usize, Vec<String>, bool)>,
}

/// The fork a nested directive is in, as far as its lowering asks.
struct Enclosing {
    in_fork: bool,
    fork_is_loop: bool,
    fork_id: Option<u32>,
    /// The fork's statement.
    fork_ctx: Option<Span>,
    /// Names each thread of the enclosing fork has its own copy of.
    fork_own: Vec<String>,
}

/// Lowers every nested directive, in source order.
pub(super) fn lower(cx: &mut Ctx<'_>, rc: &Construct<'_>, reds: &ConstructReds) -> NestedParts {
    let mut parts = NestedParts {
        forks: Vec::new(),
        master_loops: Vec::new(),
        inner_loops: Vec::new(),
        stripped: Vec::new(),
        in_order_privates: Vec::new(),
        barriers: Vec::new(),
        serials: Vec::new(),
        construct_red_uses: Vec::new(),
    };
    // A `target parallel` block is one fork of the whole team.
    if rc.kind == GenKind::OmpParallel {
        parts.forks.push(whole_block_fork(
            cx.file,
            rc.d,
            rc.block,
            reds.parallel.clone(),
        ));
    }
    // A `teams` merged into `target` from inside the block (`target` /
    // `{` / `teams` / block / `}`): its pragma is the construct's, not code.
    if let Some(t) = rc.teams {
        if rc.block.contains(t.directive.span.start) {
            parts
                .stripped
                .push((t.directive.span, "teams: merged into the target construct"));
        }
    }
    let mut sorted: Vec<&&Attached> = rc.nested.iter().collect();
    sorted.sort_by_key(|a| a.directive.span.start);
    for na in sorted {
        lower_one(cx, rc, reds, &mut parts, na);
    }
    parts
}

/// `target parallel`'s block: fork 1, the whole team.
fn whole_block_fork(
    file: &SourceFile,
    d: &Directive,
    block: Span,
    reductions: Vec<GenRed>,
) -> Fork {
    Fork {
        id: 1,
        construct: format!("{} {}", d.model.as_str(), d.name),
        pragma: d.span,
        stmt: block,
        line: file.line_of(d.span.start),
        num_threads: None,
        if_cond: None,
        ws: None,
        privates: vec![],
        reductions,
        staged: vec![],
        mapped_scalars: vec![],
        has_barrier: false,
        vars: vec![],
    }
}

/// Lowers one nested directive into `parts`.
fn lower_one(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    reds: &ConstructReds,
    parts: &mut NestedParts,
    na: &Attached,
) {
    let (d, tree) = (rc.d, cx.tree);
    let nd = &na.directive;
    let enc = enclosing(parts, nd);
    let r = role_here(rc, parts, na, &enc);
    if r == Role::Unsupported {
        cx.diags.push(
            not_supported(
                nd.name_span,
                format!(
                    "`{} {}` {} is not supported yet",
                    nd.model.as_str(),
                    nd.name,
                    if enc.in_fork {
                        "inside a parallel region of a generic-mode kernel"
                    } else {
                        "in the sequential part of an offloaded region"
                    }
                ),
            )
            .with_secondary(d.span, "in the region that starts here")
            .with_note("lowered inside a region: omp parallel [for], distribute [parallel for], for, loop, simd, barrier, single, master, masked, critical, sections, scope, flush, task, taskloop, taskgroup, taskwait, taskyield; acc loop [gang] [worker] [vector] [seq]"),
        );
        return;
    }
    if r == Role::Serial {
        super::serial::lower(cx, rc, parts, na, enc.in_fork, enc.fork_is_loop);
        return;
    }
    if r == Role::Section {
        return;
    }
    if r == Role::Task {
        let at = super::tasks::Place {
            in_fork: enc.in_fork,
            fork_is_loop: enc.fork_is_loop,
            fork_ctx: enc.fork_ctx,
            fork_own: &enc.fork_own,
        };
        super::tasks::lower(cx, rc, parts, na, at);
        return;
    }
    if matches!(r, Role::Barrier | Role::Strip(_)) {
        in_order(cx, rc, parts, na, r, &enc);
        return;
    }
    check_clauses(cx, rc, reds, parts, nd, r);
    let Some(nstmt_span) = na.stmt else {
        cx.diags.push(
            Diagnostic::new(
                codes::NO_ASSOCIATED_LOOP,
                nd.span,
                format!(
                    "`{} {}` must be followed by a statement",
                    nd.model.as_str(),
                    nd.name
                ),
            )
            .with_label("no statement follows"),
        );
        return;
    };
    let Some(nstmt) = node_at(tree, nstmt_span) else {
        return;
    };
    let is_loop_construct = match nd.model {
        Model::Omp => {
            nd.name.contains("for") || nd.name.starts_with("distribute") || nd.name == "loop"
        }
        Model::Acc => true,
    };
    let ws = if is_loop_construct {
        let Some(w) = ws_loop(cx, rc, na, nstmt, r, &enc) else {
            return;
        };
        Some(w)
    } else {
        None
    };
    match r {
        Role::Fork(_) => {
            let f = fork(cx, rc, reds, parts, nd, (nstmt_span, nstmt), r, ws);
            parts.forks.push(f);
        }
        Role::MasterLoop => {
            if let Some(w) = ws {
                parts.master_loops.push(w);
            }
        }
        Role::InnerLoop => {
            if let (Some(w), Some(id)) = (ws, enc.fork_id) {
                parts.inner_loops.push((id, w));
            }
        }
        _ => {}
    }
}

/// The fork (built so far) the directive `nd` is in.
fn enclosing(parts: &NestedParts, nd: &Directive) -> Enclosing {
    let fork_here = parts
        .forks
        .iter()
        .find(|f| nd.span.within(Span::new(f.pragma.start, f.stmt.end)) && f.pragma != nd.span);
    let in_fork = fork_here.is_some();
    let fork_is_loop = fork_here.is_some_and(|f| f.ws.is_some());
    let fork_id = fork_here.map(|f| f.id);
    let fork_ctx = fork_here.map(|f| f.stmt);
    // Names each thread of the enclosing fork has its own copy of.
    let fork_own: Vec<String> = fork_here
        .map(|f| {
            f.privates
                .iter()
                .map(|p| p.name.clone())
                .chain(f.reductions.iter().map(|r| r.name.clone()))
                .chain(f.ws.iter().flat_map(|w| {
                    w.privates
                        .iter()
                        .map(|p| p.name.clone())
                        .chain(w.nest.iter().map(|l| l.var.clone()))
                }))
                .collect()
        })
        .unwrap_or_default();
    Enclosing {
        in_fork,
        fork_is_loop,
        fork_id,
        fork_ctx,
        fork_own,
    }
}

/// The directive's role, with the levels an `acc loop` without one takes
/// from where it is.
fn role_here(rc: &Construct<'_>, parts: &NestedParts, na: &Attached, enc: &Enclosing) -> Role {
    let (kind, one_gang) = (rc.kind, rc.one_gang);
    let nd = &na.directive;
    let mut r = role(nd, kind, enc.in_fork, enc.fork_is_loop);
    // An `acc loop` with no level inside a gang loop of the sequential
    // part takes the levels below gang: the threads of the gang; in a
    // kernels block of one gang, all threads are that gang's.
    if r == Role::Fork(Spread::Grid)
        && nd.model == Model::Acc
        && (one_gang
            || (nd.clause("gang").is_none()
                && parts.master_loops.iter().any(|w| nd.span.within(w.stmt))))
    {
        r = Role::Fork(Spread::Team);
    } else if r == Role::Fork(Spread::Grid)
        && !one_gang
        && crate::lower::acc_auto::gang_by_nesting(nd, na.stmt, &rc.nested)
    {
        // No level, with a loop inside that takes the levels below gang.
        r = Role::MasterLoop;
    }
    r
}

/// A barrier, or a construct whose code runs as written (`simd`, `seq`,
/// a worksharing loop of a team of one thread, ...): its reductions are
/// checked and its clauses must be ones such code honours.
fn in_order(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    parts: &mut NestedParts,
    na: &Attached,
    r: Role,
    enc: &Enclosing,
) {
    let (tree, root, text) = (cx.tree, rc.root, rc.text);
    let (fork_ctx, fork_own) = (&enc.fork_ctx, &enc.fork_own);
    let nd = &na.directive;
    // A loop one thread runs in order: its reductions are the loop's
    // own updates of the variable (identity, then combined once).
    if matches!(r, Role::Strip(_)) && nd.clause("reduction").is_some() {
        if let Some(n) = na.stmt.and_then(|s| node_at(tree, s)) {
            let reds = reductions(cx, nd, n, None, &[]);
            array_generic::in_order(&mut cx.array_reds, nd.span, fork_ctx.is_some(), cx.diags);
            // Inside a parallel region every thread runs the loop:
            // that is the clause's meaning only for its own variables.
            if let Some(fstmt) = fork_ctx {
                let syms = symbols::visible_at(root, text, n);
                for red in reds {
                    let own = fork_own.contains(&red.name)
                        || syms
                            .get(&red.name)
                            .is_some_and(|s| s.decl_span.within(*fstmt));
                    if !own {
                        cx.diags.push(
                            not_supported(
                                red.span,
                                format!(
                                    "a reduction on a loop that each thread of a parallel region runs in order, over `{}`, which the threads share, is not supported yet",
                                    red.name
                                ),
                            )
                            .with_note("only reductions over the threads of one team are lowered (omp parallel [for], for; acc loop worker / vector)"),
                        );
                    }
                }
            }
        }
    }
    for c in &nd.clauses {
        if c.name == "reduction" && matches!(r, Role::Strip(_)) {
            continue;
        }
        if !nested_clause_ok(nd.model, &c.name)
            || crate::lower::default_private::privatizing_clause(nd.model, c)
        {
            cx.diags.push(not_supported(
                c.name_span,
                format!("clause `{}` here is not supported yet", c.name),
            ));
        }
    }
    match r {
        Role::Barrier => parts.barriers.push((nd.span, true)),
        Role::Strip(why) => {
            parts.stripped.push((nd.span, why));
            in_order_privates(cx, parts, na);
        }
        _ => {}
    }
}

/// A construct that runs as plain code still gives its `private` and
/// `firstprivate` items their own copies (a block around its statement);
/// `lastprivate` needs none: the last iteration in order writes the variable.
pub(super) fn in_order_privates(cx: &mut Ctx<'_>, parts: &mut NestedParts, na: &Attached) {
    let nd = &na.directive;
    if !nd
        .clauses
        .iter()
        .any(|c| c.name == "private" || c.name == "firstprivate")
    {
        return;
    }
    let Some((stmt, node)) = na.stmt.and_then(|s| Some((s, node_at(cx.tree, s)?))) else {
        return;
    };
    let privates: Vec<_> = privates(cx, nd, node, None)
        .into_iter()
        .filter(|p| !matches!(p.kind, PrivKind::Lastprivate { .. }))
        .collect();
    if !privates.is_empty() {
        parts
            .in_order_privates
            .push(InOrderPrivates { stmt, privates });
    }
}

/// The clauses of a fork or loop: `copyin` is a validation error, a reduction is
/// lowered over one team or as the construct's own (recorded in
/// `construct_red_uses`), anything else must be in the table.
fn check_clauses(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    reds: &ConstructReds,
    parts: &mut NestedParts,
    nd: &Directive,
    r: Role,
) {
    let (d, file) = (rc.d, cx.file);
    let (team_reds, team_arrays) = (&reds.team, &reds.team_arrays);
    let construct_red_uses = &mut parts.construct_red_uses;
    for c in &nd.clauses {
        if c.name == "copyin" && nd.model == Model::Omp {
            // valid/copyin_on_device.rs reports it (E0451).
        } else if c.name == "reduction" {
            let why = match r {
                Role::Fork(Spread::Team) | Role::InnerLoop => None,
                Role::Fork(_) | Role::MasterLoop
                    if !team_reds.is_empty() || !team_arrays.is_empty() =>
                {
                    match of_construct(c, team_reds, team_arrays) {
                        Ok(names) if names.is_empty() => None,
                        Ok(names) => {
                            let line = file.line_of(nd.span.start);
                            match construct_red_uses.last_mut() {
                                Some((l, v, false)) if *l == line => v.extend(names),
                                _ => construct_red_uses.push((line, names, false)),
                            }
                            None
                        }
                        Err(e) => {
                            cx.diags.push(
                                not_supported(e.0, e.1)
                                    .with_secondary(d.span, "the compute construct's reduction clause")
                                    .with_note("lowered: a reduction over the teams on a variable the compute construct reduces with the same operator (seed 001: no second gang-level setup), or on a scalar or array section the construct maps tofrom and only such loops name (same operator and section)"),
                            );
                            continue;
                        }
                    }
                }
                Role::Fork(_) => Some("reductions on a loop spread over the threads of all teams are not supported yet"),
                _ => Some("reductions on a loop spread over the teams are not supported yet"),
            };
            if let Some(why) = why {
                cx.diags.push(
                    not_supported(c.span, why)
                        .with_note("lowered inside a region: reductions over the threads of one team (omp parallel [for], for; acc loop worker / vector); over the teams, on a variable the compute construct reduces, or on a scalar or array section it maps tofrom that only such loops name (same operator and section)"),
                );
            }
        } else if !nested_clause_ok(nd.model, &c.name)
            || (crate::lower::default_private::privatizing_clause(nd.model, c) && r != Role::Task)
        {
            cx.diags.push(not_supported(
                c.name_span,
                format!(
                    "clause `{}` on nested `{} {}` is not supported yet",
                    c.name,
                    nd.model.as_str(),
                    nd.name
                ),
            ));
        } else if matches!(c.name.as_str(), "gang" | "worker" | "vector")
            && !matches!(c.args, ClauseArgs::None)
        {
            cx.diags.push(
                not_supported(
                    c.span,
                    format!("arguments of `{}` are not supported yet", c.name),
                )
                .with_help("use num_gangs / num_workers / vector_length on the compute construct"),
            );
        }
    }
}

/// The loop of a loop construct: its nest, how it spreads, its private
/// items and (inside a fork) its reductions. `None` when the nest is
/// refused.
fn ws_loop(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    na: &Attached,
    nstmt: Node<'_>,
    r: Role,
    enc: &Enclosing,
) -> Option<WsLoop> {
    let (tree, file, one_gang, block, text) = (cx.tree, cx.file, rc.one_gang, rc.block, rc.text);
    let (fork_ctx, fork_own) = (&enc.fork_ctx, &enc.fork_own);
    let nd = &na.directive;
    let nstmt_span = na.stmt?;
    let (nest, types) = loop_nest(cx, nd, nstmt)?;
    let body = nest.last().and_then(|l| node_at(tree, l.body));
    let mut privs = privates(cx, nd, nstmt, body);
    let spread = match r {
        Role::Fork(s) => s,
        Role::MasterLoop => Spread::Teams,
        _ => Spread::Team,
    };
    crate::lower::gen_lastprivate::keep_team_only(&mut privs, spread, cx.diags);
    let (chunk, chunk_note) = ws_chunk(cx, nd, spread);
    crate::lower::teams_lastprivate::keep_unshared_uses(
        &mut privs,
        spread,
        one_gang,
        Span::new(nd.span.start, nstmt_span.end),
        block,
        text,
        cx.diags,
    );
    Some(WsLoop {
        construct: crate::source::pragma_text::pragma_one_line(file.slice(nd.span))
            .trim_start_matches("#pragma ")
            .to_string(),
        pragma: nd.span,
        stmt: nstmt_span,
        nest,
        narrow_counter: crate::lower::counter::narrow_nest(&types),
        types,
        spread,
        barrier_after: r == Role::InnerLoop && nd.clause("nowait").is_none(),
        privates: privs,
        staged_vars: vec![],
        reductions: match (r, fork_ctx) {
            (Role::InnerLoop, Some(fs)) => reductions(cx, nd, nstmt, Some(*fs), fork_own),
            _ => vec![],
        },
        red_at_join: false,
        chunk,
        chunk_note,
    })
}

/// The chunks of a loop's workers (`lower::chunk`), numbered as the loop
/// spreads: the team's threads (a block-stride loop), every thread of every
/// team (grid-stride), or the teams' masters (block-only).
fn ws_chunk(
    cx: &mut Ctx<'_>,
    nd: &Directive,
    spread: Spread,
) -> (Option<crate::ir::region::Chunk>, Option<String>) {
    use crate::ir::region::Schedule;
    if nd.model != Model::Omp {
        return (None, None);
    }
    let schedule = match spread {
        Spread::Team => Schedule::BlockStride,
        Spread::Grid => Schedule::GridStride,
        Spread::Teams => Schedule::BlockOnly,
    };
    let chunk = crate::lower::chunk::decide(cx.file, nd, schedule, false, cx.diags);
    let note = crate::lower::chunk::describe(nd, &chunk);
    (chunk, note)
}

/// A fork: its team size clauses, private items and reductions (a loop
/// fork's implicit ones included). Its id is the next in source order.
#[allow(clippy::too_many_arguments)]
fn fork(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    reds: &ConstructReds,
    parts: &mut NestedParts,
    nd: &Directive,
    (nstmt_span, nstmt): (Span, Node<'_>),
    r: Role,
    ws: Option<WsLoop>,
) -> Fork {
    let (file, text) = (cx.file, rc.text);
    let (team_reds, team_arrays) = (&reds.team, &reds.team_arrays);
    let (num_threads, if_cond) = match nd.model {
        Model::Omp => (
            nd.clause("num_threads")
                .and_then(|c| c.expr())
                .map(|e| e.text.clone()),
            nd.clause("if")
                .and_then(|c| c.expr())
                .map(|e| e.text.clone()),
        ),
        Model::Acc => (None, None),
    };
    let privs = if ws.is_some() {
        vec![]
    } else {
        privates(cx, nd, nstmt, Some(nstmt))
    };
    let mut reds = if r == Role::Fork(Spread::Team)
        || (r == Role::Fork(Spread::Grid) && (!team_reds.is_empty() || !team_arrays.is_empty()))
    {
        reductions(cx, nd, nstmt, None, &[])
    } else {
        vec![]
    };
    if let Some(w) = &ws {
        let implicit = implicit_reductions(nstmt, text, team_reds, &reds, w);
        if !implicit.is_empty() {
            parts.construct_red_uses.push((
                file.line_of(nd.span.start),
                implicit.iter().map(|x| x.name.clone()).collect(),
                true,
            ));
            reds.extend(implicit);
        }
    }
    let id = parts.forks.len() as u32 + 1;
    Fork {
        id,
        construct: crate::source::pragma_text::pragma_one_line(file.slice(nd.span))
            .trim_start_matches("#pragma ")
            .to_string(),
        pragma: nd.span,
        stmt: nstmt_span,
        line: file.line_of(nd.span.start),
        num_threads,
        if_cond,
        ws,
        privates: privs,
        reductions: reds,
        staged: vec![],
        mapped_scalars: vec![],
        has_barrier: false,
        vars: vec![],
    }
}
