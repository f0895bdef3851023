//! Phase 7: the variables forks share with the sequential part, which must
//! live in the team's frame: variables declared in the sequential part,
//! and region variables the region writes, privatizes or reduces. Mapped
//! scalars a fork uses are recorded instead (they stay device copies).

use super::construct::Construct;
use super::construct_reductions::ConstructReds;
use super::nested_constructs::NestedParts;
use super::region_vars::RegionVars;
use super::syntax::node_at;
use super::{not_supported, Ctx};
use crate::front::c::Node;
use crate::ir::generic::{Fork, GenKind, PrivKind, PrivVar, WsLoop};
use crate::lower::reduction::array_generic;
use crate::sema::sharing::Attr;
use crate::sema::{symbols, uses, CType};
use crate::source::Span;

/// A variable a fork needs in the team's frame.
pub(super) struct Want {
    pub name: String,
    pub ty: CType,
    pub span: Span,
    /// The declared name (a variable of the sequential part).
    pub decl_span: Option<Span>,
    pub region_var: bool,
    /// The iteration variable of a loop of the sequential part, declared
    /// before the loop: the loop's statement and the variable's place in
    /// its nest. The team's private copy of the current iteration's value
    /// (OpenMP 5.2 5.1.1, OpenACC 3.3 2.6.1: private to the executing
    /// team), which the forks inside the loop read.
    pub loop_var: Option<(Span, usize)>,
    /// Forks that use it.
    pub forks: Vec<u32>,
    pub why: String,
}

/// What the forks share, per fork.
pub(super) struct Wants {
    pub wants: Vec<Want>,
    /// Per fork: indices into `wants`.
    pub fork_wants: Vec<Vec<usize>>,
    /// Per fork: mapped scalars it uses (indices into the region's variables).
    pub fork_mapped: Vec<Vec<usize>>,
}

/// The variables each fork shares, and which staged variable each loop
/// variable of the sequential part's loops is.
pub(super) fn collect(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    rv: &RegionVars,
    reds: &ConstructReds,
    parts: &mut NestedParts,
) -> Wants {
    let (kind, block, root, text, tree) = (rc.kind, rc.block, rc.root, rc.text, cx.tree);
    let vars = &rv.vars;
    let NestedParts {
        forks,
        master_loops,
        inner_loops,
        ..
    } = parts;
    let mut out = Wants {
        wants: Vec::new(),
        fork_wants: vec![vec![]; forks.len()],
        fork_mapped: vec![vec![]; forks.len()],
    };
    let loop_decls = outer_loop_var_decls(root, text, tree, master_loops);
    for (fi, f) in forks.iter().enumerate() {
        if kind == GenKind::OmpParallel {
            // The whole block is the fork: nothing of a sequential part to share.
            for (vi, v) in vars.iter().enumerate() {
                if v.maps_one_object() {
                    out.fork_mapped[fi].push(vi);
                }
            }
            continue;
        }
        let Some(fnode) = node_at(tree, f.stmt) else {
            continue;
        };
        let fused = fork_uses(cx, f, inner_loops, fnode, text);
        let fsyms = symbols::visible_at(root, text, fnode);
        let (loop_vars, plain_private) = own_vars(f, inner_loops);
        for u in &fused {
            if loop_vars.contains(&u.name.as_str()) || plain_private.contains(&u.name.as_str()) {
                continue;
            }
            let Some(sym) = fsyms.get(&u.name) else {
                continue;
            };
            if sym.is_typedef || sym.ty.is_function() {
                continue;
            }
            if let Some((w, idx)) = enclosing_loop_var(master_loops, &loop_decls, f, sym) {
                want_loop_var(w, idx, f.id, &mut out.wants, &mut out.fork_wants[fi]);
            } else if sym.decl_span.within(block) {
                want_sequential(cx, sym, f.id, &mut out.wants, &mut out.fork_wants[fi]);
            } else if let Some(vi) = vars.iter().position(|v| v.sym.name == u.name) {
                let lastp = lastprivate_anywhere(forks, inner_loops, &vars[vi].sym.name);
                let use_ = RegionVarUse { u, vi, fi, lastp };
                if let Some(why) = region_var_stage(cx, rv, reds, f, &use_, &mut out) {
                    out.want_region_var(&vars[vi], f.id, fi, why);
                }
            }
        }
    }
    // Loop variables of the sequential part's loops that forks inside them use.
    master_loop_vars(tree, root, text, master_loops, &out.wants);
    out
}

/// What a fork uses: the names in its statement, the variables of its and
/// its loops' reductions (shared by the team even when only the clause
/// names them), and the array reductions it combines into.
fn fork_uses(
    cx: &Ctx<'_>,
    f: &Fork,
    inner_loops: &[(u32, WsLoop)],
    fnode: Node<'_>,
    text: &str,
) -> Vec<uses::Use> {
    let (mut fused, _) = uses::free_identifiers(fnode, text);
    for r in f.reductions.iter().chain(
        inner_loops
            .iter()
            .filter(|(id, _)| *id == f.id)
            .flat_map(|(_, w)| w.reductions.iter()),
    ) {
        if !fused.iter().any(|u| u.name == r.name) {
            fused.push(uses::Use {
                name: r.name.clone(),
                span: r.span,
                written: true,
                assigned: true,
            });
        }
    }
    array_generic::fork_uses(&cx.array_reds, f, inner_loops, &mut fused);
    fused
}

/// The names each of the fork's threads has its own copy of: the loop
/// variables of its loops (a loop variable in a lastprivate clause is the
/// original too, which the last iteration's thread assigns: bound like any
/// use), and its plain private items.
fn own_vars<'f>(f: &'f Fork, inner_loops: &'f [(u32, WsLoop)]) -> (Vec<&'f str>, Vec<&'f str>) {
    let loop_vars: Vec<&str> =
        f.ws.iter()
            .chain(
                inner_loops
                    .iter()
                    .filter(|(id, _)| *id == f.id)
                    .map(|(_, w)| w),
            )
            .flat_map(|w| {
                w.nest.iter().map(|l| l.var.as_str()).filter(|v| {
                    !w.privates
                        .iter()
                        .any(|p| p.name == *v && matches!(p.kind, PrivKind::Lastprivate { .. }))
                })
            })
            .collect();
    let plain_private: Vec<&str> = f
        .privates
        .iter()
        .chain(f.ws.iter().flat_map(|w| w.privates.iter()))
        .filter(|p| p.kind == PrivKind::Private)
        .map(|p| p.name.as_str())
        .collect();
    (loop_vars, plain_private)
}

/// Whether some fork or loop in a fork has `name` in a lastprivate clause.
fn lastprivate_anywhere(forks: &[Fork], inner_loops: &[(u32, WsLoop)], name: &str) -> bool {
    let lastp = |p: &PrivVar| p.name == name && matches!(p.kind, PrivKind::Lastprivate { .. });
    forks.iter().any(|g| {
        g.privates
            .iter()
            .chain(g.ws.iter().flat_map(|w| w.privates.iter()))
            .any(lastp)
    }) || inner_loops
        .iter()
        .any(|(_, w)| w.privates.iter().any(lastp))
}

/// A fork's use of a region variable: the use, the variable's index, the
/// fork's index, and whether a clause somewhere makes it lastprivate.
struct RegionVarUse<'u> {
    u: &'u uses::Use,
    vi: usize,
    fi: usize,
    lastp: bool,
}

/// Why a region variable a fork uses goes into the frame, if it does.
/// Mapped scalars are recorded for the fork instead; a mapped pointer
/// assigned in the region, and an array reduction of the construct used in
/// a fork, are refused.
fn region_var_stage(
    cx: &mut Ctx<'_>,
    rv: &RegionVars,
    reds: &ConstructReds,
    f: &Fork,
    use_: &RegionVarUse<'_>,
    out: &mut Wants,
) -> Option<&'static str> {
    let (written, team_arrays) = (&rv.written, &reds.team_arrays);
    let (u, vi, fi) = (use_.u, use_.vi, use_.fi);
    let v = &rv.vars[vi];
    match &v.attr {
        Attr::Firstprivate => (written.contains(&v.sym.name) || use_.lastp)
            .then_some("firstprivate to the region, written in it and used in a parallel region"),
        Attr::Private => Some("private to the region and used in a parallel region"),
        Attr::Mapped { .. } => {
            if v.maps_one_object() {
                if !out.fork_mapped[fi].contains(&vi) {
                    out.fork_mapped[fi].push(vi);
                }
            } else if written.contains(&v.sym.name) {
                cx.diags.push(not_supported(
                    u.span,
                    format!("assigning the mapped pointer `{}` inside a region with parallel regions is not supported yet", v.sym.name),
                ));
            }
            None
        }
        Attr::Reduction { .. } => Some(
            "the team's private copy of a reduction on the compute construct, used in a parallel region",
        ),
        // A loop over all teams' threads that reduces it itself
        // (`reduction/array_over_teams.rs`) combines into the team's copy.
        Attr::ArrayReduction { .. }
            if team_arrays.contains(&v.sym.name)
                && cx
                    .array_reds
                    .iter()
                    .any(|a| a.var == v.sym.name && a.construct == f.pragma) =>
        {
            None
        }
        Attr::ArrayReduction { .. } => {
            cx.diags.push(array_generic::construct_array_in_fork(u.span, &v.sym.name));
            None
        }
        Attr::Lastprivate { .. } | Attr::ArrayPrivate { .. } => None,
    }
}

impl Wants {
    /// Region variable `v` in the frame for fork `fid` (index `fi`).
    fn want_region_var(
        &mut self,
        v: &crate::sema::sharing::VarAttr,
        fid: u32,
        fi: usize,
        why: &str,
    ) {
        let key = self
            .wants
            .iter()
            .position(|w| w.region_var && w.name == v.sym.name);
        let k = match key {
            Some(k) => k,
            None => {
                // A private array of the region lives in the frame itself;
                // other arrays are pointers to their device copy.
                let ty = if v.sym.ty.is_array() && v.attr != Attr::Private {
                    v.sym.ty.decayed()
                } else {
                    v.sym.ty.clone()
                };
                self.wants.push(Want {
                    name: v.sym.name.clone(),
                    ty,
                    span: v.span,
                    decl_span: None,
                    region_var: true,
                    loop_var: None,
                    forks: vec![],
                    why: why.into(),
                });
                self.wants.len() - 1
            }
        };
        if !self.wants[k].forks.contains(&fid) {
            self.wants[k].forks.push(fid);
        }
        self.fork_wants[fi].push(k);
    }
}

/// For each loop of the sequential part: the staged variable each of its
/// loop variables is, when a fork inside the loop uses it.
fn master_loop_vars(
    tree: &crate::front::CTree,
    root: Node<'_>,
    text: &str,
    master_loops: &mut [WsLoop],
    wants: &[Want],
) {
    for w in master_loops.iter_mut() {
        let body = w.nest.last().and_then(|l| node_at(tree, l.body));
        let stmt = w.stmt;
        w.staged_vars = w
            .nest
            .iter()
            .enumerate()
            .map(|(idx, l)| {
                if let Some(k) = wants.iter().position(|x| x.loop_var == Some((stmt, idx))) {
                    return Some(k);
                }
                let b = body?;
                let s = symbols::visible_at(root, text, b);
                let sym = s.get(&l.var)?;
                wants
                    .iter()
                    .position(|x| !x.region_var && x.decl_span == Some(sym.span))
            })
            .collect();
    }
}

/// A variable of the sequential part that fork `fid` uses: wanted in the
/// frame (a static one is refused).
fn want_sequential(
    cx: &mut Ctx<'_>,
    sym: &symbols::Symbol,
    fid: u32,
    wants: &mut Vec<Want>,
    fork_wants: &mut Vec<usize>,
) {
    if sym.is_static {
        cx.diags.push(not_supported(
            sym.span,
            "a static variable of an offloaded region used in a nested parallel region is not supported yet",
        ));
        return;
    }
    let key = wants
        .iter()
        .position(|w| w.decl_span == Some(sym.span) && !w.region_var);
    let k = match key {
        Some(k) => k,
        None => {
            wants.push(Want {
                name: sym.name.clone(),
                ty: sym.ty.clone(),
                span: sym.span,
                decl_span: Some(sym.span),
                region_var: false,
                loop_var: None,
                forks: vec![],
                why: "declared in the sequential part and used in a parallel region".into(),
            });
            wants.len() - 1
        }
    };
    if !wants[k].forks.contains(&fid) {
        wants[k].forks.push(fid);
    }
    fork_wants.push(k);
}

/// Per loop of the sequential part, per loop of its nest: the declaration
/// of an iteration variable declared before the loop (`int i; ... for (i =
/// 0; ...)`), as the loop's body sees it.
fn outer_loop_var_decls(
    root: Node<'_>,
    text: &str,
    tree: &crate::front::CTree,
    master_loops: &[WsLoop],
) -> Vec<Vec<Option<Span>>> {
    master_loops
        .iter()
        .map(|w| {
            let outer = w.nest.iter().any(|l| l.declared_type.is_none());
            let body = w.nest.last().and_then(|l| node_at(tree, l.body));
            let at_loop = match (outer, body) {
                (true, Some(b)) => symbols::visible_at(root, text, b),
                _ => Default::default(),
            };
            w.nest
                .iter()
                .map(|l| {
                    l.declared_type
                        .is_none()
                        .then(|| at_loop.get(&l.var).map(|s| s.span))
                        .flatten()
                })
                .collect()
        })
        .collect()
}

/// The innermost loop of the sequential part around fork `f` whose
/// iteration variable, declared before the loop, is `sym` (as the fork sees
/// it), and the variable's place in the loop's nest.
fn enclosing_loop_var<'w>(
    master_loops: &'w [WsLoop],
    decls: &[Vec<Option<Span>>],
    f: &crate::ir::generic::Fork,
    sym: &symbols::Symbol,
) -> Option<(&'w WsLoop, usize)> {
    let (wi, w) = master_loops
        .iter()
        .enumerate()
        .filter(|(_, w)| w.nest.last().is_some_and(|l| f.stmt.within(l.body)))
        .min_by_key(|(_, w)| w.stmt.end - w.stmt.start)?;
    let idx = w
        .nest
        .iter()
        .zip(&decls[wi])
        .position(|(l, d)| l.var == sym.name && *d == Some(sym.span))?;
    Some((w, idx))
}

/// The iteration variable `idx` of the sequential part's loop `w`, which
/// fork `fid` uses: wanted in the frame as the team's private copy.
fn want_loop_var(
    w: &WsLoop,
    idx: usize,
    fid: u32,
    wants: &mut Vec<Want>,
    fork_wants: &mut Vec<usize>,
) {
    let key = Some((w.stmt, idx));
    let k = match wants.iter().position(|x| x.loop_var == key) {
        Some(k) => k,
        None => {
            let l = &w.nest[idx];
            wants.push(Want {
                name: l.var.clone(),
                ty: w.types[idx].clone(),
                span: l.var_span,
                decl_span: None,
                region_var: false,
                loop_var: key,
                forks: vec![],
                why: format!(
                    "iteration variable of the `{}` loop, private to the team running the iteration; the team's current value, read by the parallel regions in the loop",
                    w.construct
                ),
            });
            wants.len() - 1
        }
    };
    if !wants[k].forks.contains(&fid) {
        wants[k].forks.push(fid);
    }
    fork_wants.push(k);
}
