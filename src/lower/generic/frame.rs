//! Phase 8: the team's frame. Each variable the forks share gets its layout
//! (a variable-length array of the sequential part: its address), the
//! frame is laid out in shared memory within the budget and in global
//! memory beyond it (`lower/staging.rs`), and each staged variable gets the
//! declarator the emitter rewrites. Then every fork reduction must combine
//! into a variable the team shares.

use super::construct::Construct;
use super::construct_reductions::ConstructReds;
use super::frame_wants::{Want, Wants};
use super::nested_constructs::NestedParts;
use super::region_vars::RegionVars;
use super::syntax::{declarator_site, node_at, scope_end, span_of, symbols_decl_span};
use super::{not_supported, Ctx};
use crate::ir::generic::{Fork, Staged, WsLoop};
use crate::ir::staging::{Candidate, Staging};
use crate::lower::staging;
use crate::sema::layout::{self, Layout};
use crate::sema::sharing;
use crate::sema::{CType, Deriv};

/// The frame's layout inputs, per wanted variable.
struct Layouts {
    cands: Vec<Candidate>,
    /// Variables whose layout is unknown: refused, and kept out of shared memory.
    forced: Vec<bool>,
    lays: Vec<Layout>,
    ok: Vec<bool>,
    /// A variable-length array: the frame holds its address.
    vla: Vec<bool>,
}

/// The staged variables and where the frame lives.
pub(super) struct Frame {
    pub staged: Vec<Staged>,
    pub st: Staging,
}

/// Lays out the frame and gives each fork its staged variables.
pub(super) fn stage(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    rv: &RegionVars,
    reds: &ConstructReds,
    wants: Wants,
    parts: &mut NestedParts,
    budget: u64,
) -> Frame {
    let Wants {
        wants,
        fork_wants,
        fork_mapped,
    } = wants;
    let lay = layouts(cx, rc, rv, reds, &wants);
    let st = staging::stage(&lay.cands, &lay.forced, budget);
    let staged = staged_vars(cx, wants, &lay, &st);
    let forks = &mut parts.forks;
    for (fi, f) in forks.iter_mut().enumerate() {
        let mut s = fork_wants[fi].clone();
        s.sort();
        s.dedup();
        f.staged = s;
        f.mapped_scalars = fork_mapped[fi].clone();
    }
    Frame { staged, st }
}

/// The layout of each wanted variable, refusing those of unknown size.
fn layouts(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    rv: &RegionVars,
    reds: &ConstructReds,
    wants: &[Want],
) -> Layouts {
    let (tree, block) = (cx.tree, rc.block);
    let (team_reds, symbols_at_region) = (&reds.team, &rv.symbols_at_region);
    let mut cands = Vec::new();
    let mut forced = Vec::new();
    let mut lays = Vec::new();
    let mut ok = vec![true; wants.len()];
    let mut vla = vec![false; wants.len()];
    for (k, w) in wants.iter().enumerate() {
        let live = match (w.decl_span, w.loop_var) {
            (Some(s), _) => {
                let decl = symbols_decl_span(tree, s).unwrap_or(s);
                (decl.start, scope_end(tree, decl, block.end))
            }
            (None, Some((stmt, _))) => (stmt.start, stmt.end),
            (None, None) => (block.start, block.end),
        };
        // Region variables' types are already what the frame holds.
        let ty = w.ty.clone();
        // A reduction variable is an arithmetic scalar whose size sema
        // knows even through typedefs the layout does not read.
        let red_layout = team_reds
            .iter()
            .find(|x| w.region_var && x.name == w.name)
            .map(|x| Layout {
                size: x.arith.bytes() as u64,
                align: x.arith.bytes() as u64,
            });
        let (l, is_forced) = match layout::layout_of(
            &layout::resolve_typedefs(&ty, symbols_at_region),
            &cx.consts,
        )
        .or_else(|e| red_layout.ok_or(e))
        {
            Ok(l) => (l, false),
            // A one-dimensional variable-length array of the sequential part:
            // its elements go to global memory (the device heap, freed when
            // the master leaves its block), its address to the frame.
            Err(layout::Unknown::Vla(_))
                if !w.region_var
                    && matches!(ty.derivs.as_slice(), [Deriv::Array(Some(_))])
                    && cx.consts.base_layout(&ty.base).is_some() =>
            {
                vla[k] = true;
                (Layout { size: 8, align: 8 }, false)
            }
            Err(e) => {
                ok[k] = false;
                cx.diags.push(
                    not_supported(
                        w.span,
                        format!(
                            "`{}` is shared with a parallel region but {}; staging it is not supported yet",
                            w.name,
                            e.describe()
                        ),
                    )
                    .with_help("give it a fixed size (an integer constant or a #define of this file)"),
                );
                (Layout { size: 0, align: 1 }, true)
            }
        };
        lays.push(l);
        cands.push(Candidate {
            size: l.size,
            align: l.align,
            live,
        });
        forced.push(is_forced);
    }
    Layouts {
        cands,
        forced,
        lays,
        ok,
        vla,
    }
}

/// The staged variables: each wanted variable with its home in the frame
/// and the declarator, initializer and extent the emitter rewrites.
fn staged_vars(cx: &mut Ctx<'_>, wants: Vec<Want>, lay: &Layouts, st: &Staging) -> Vec<Staged> {
    let tree = cx.tree;
    let (lays, ok, vla) = (&lay.lays, &lay.ok, &lay.vla);
    let mut staged = Vec::new();
    for (k, w) in wants.into_iter().enumerate() {
        let (declarator, init) = match w.decl_span {
            Some(s) => match symbols_decl_span(tree, s).and_then(|ds| declarator_site(tree, ds, s))
            {
                Some((d, i)) => (Some(d), i),
                None => (None, None),
            },
            None => (None, None),
        };
        let decl_end = w
            .decl_span
            .and_then(|s| symbols_decl_span(tree, s))
            .and_then(|ds| node_at(tree, ds))
            .filter(|n| n.parent().is_some_and(|p| p.kind() == "compound_statement"))
            .map(|n| n.end_byte());
        if !w.region_var && w.loop_var.is_none() && declarator.is_none() && ok[k] {
            cx.diags.push(not_supported(
                w.span,
                format!(
                    "`{}` is declared where pragma2cuda cannot move it to the team's frame",
                    w.name
                ),
            ));
        }
        // Region variables' types are already what the frame holds.
        let ty = w.ty.clone();
        // VLA: the frame holds a pointer; the extent is evaluated where the
        // array was declared.
        let mut vla_extent = None;
        let mut decl_start = None;
        let ty = if vla[k] {
            vla_extent = declarator
                .and_then(|d| node_at(tree, d))
                .and_then(|n| n.child_by_field_name("size"))
                .map(span_of);
            decl_start = w
                .decl_span
                .and_then(|s| symbols_decl_span(tree, s))
                .filter(|_| decl_end.is_some())
                .map(|d| d.start);
            if vla_extent.is_none() || decl_start.is_none() {
                cx.diags.push(not_supported(
                    w.span,
                    format!("the variable-length array `{}` is declared where pragma2cuda cannot allocate it", w.name),
                ));
            }
            CType {
                base: ty.base.clone(),
                derivs: vec![Deriv::Pointer { quals: vec![] }],
            }
        } else {
            ty
        };
        staged.push(Staged {
            vla_extent,
            decl_start,
            assert_size: layout::depends_on_macro(&ty, &cx.consts),
            name: w.name,
            ty,
            span: w.span,
            region_var: w.region_var,
            loop_var: w.loop_var.is_some(),
            layout: lays[k],
            home: st.homes[k],
            declarator,
            init,
            decl_end,
            forks: w.forks,
            why: if vla[k] {
                format!("{}; a variable-length array: the frame holds its address, its elements are on the device heap", w.why)
            } else {
                w.why
            },
        });
    }
    staged
}

/// Each reduction combines into a variable the team shares: the team's
/// frame, or a mapped scalar (then one team, or several would race).
pub(super) fn check_reduction_targets(
    cx: &mut Ctx<'_>,
    forks: &[Fork],
    inner_loops: &[(u32, WsLoop)],
    staged: &[Staged],
    vars: &[sharing::VarAttr],
    one_team: bool,
) {
    for f in forks {
        for r in f.reductions.iter().chain(
            inner_loops
                .iter()
                .filter(|(id, _)| *id == f.id)
                .flat_map(|(_, w)| w.reductions.iter()),
        ) {
            let in_frame = f.staged.iter().any(|&si| staged[si].name == r.name);
            let mapped = f
                .mapped_scalars
                .iter()
                .any(|&vi| vars[vi].sym.name == r.name);
            if mapped && !one_team {
                cx.diags.push(
                    not_supported(
                        r.span,
                        format!(
                            "a reduction into the mapped variable `{}` from a region of several teams is not supported yet",
                            r.name
                        ),
                    )
                    .with_note("every team would combine its result into the same device copy")
                    .with_help("reduce into a variable declared in the region, then combine the teams' values"),
                );
            } else if !in_frame && !mapped {
                cx.diags.push(
                    not_supported(
                        r.span,
                        format!(
                            "a reduction over `{}`, which the threads of the parallel region do not share, is not supported yet",
                            r.name
                        ),
                    )
                    .with_note("lowered: variables of the sequential part, variables the region writes, mapped scalars"),
                );
            }
        }
    }
}
