//! The team's side of an orphaned parallel region (`lower::orphan`,
//! `lower::orphan_clauses`): the outlined body that every thread of the
//! block runs, with the construct's private copies, its worksharing loops
//! (`schedule`, `collapse`, `lastprivate`) and its reductions.
//!
//! Reductions use generic mode's team combine, not a tree of their own:
//! each thread's private copy starts at the identity (`emit::reduction::
//! declare_identity`), the copies of a warp meet in the prelude's shuffle
//! trees (`p2c_team_warp_tree` per variable, or `p2c_team_red_warps` over
//! the packed value when a variable is complex; one value per warp in a
//! `__shared__` slot array of the reduction data struct of
//! `emit::reduction::data_struct`),
//! and thread 0 folds the warps' values in warp order
//! (`p2c_team_red_value`) into the variable the team shares (its slot in
//! the orphan frame). For the construct's own clause the fold comes after
//! named barrier 4 over the whole block, which every thread of the block
//! reaches (threads beyond the team skip the body only), so any team size
//! works; for a `for` nested in a `parallel` block it comes between two
//! team barriers, as in generic mode.

use super::edits::{apply, Edit};
use super::namer::Namer;
use super::region;
use crate::ir::c::CType;
use crate::ir::generic::GenRed;
use crate::ir::orphan::{Chunk, OLoop, OPriv};
use crate::source::{SourceFile, Span};
use std::fmt::Write;

/// The reduction data struct and the slots of one construct's reductions.
pub struct RedSite {
    pub ty: String,
    pub slots: String,
    /// The reduction data value each thread builds (`p2c_red`).
    pub value: String,
}

/// The struct and its `__shared__` slots, before the outlined body.
pub fn red_site_decls(site: &RedSite, reds: &[GenRed], what: &str) -> String {
    let fields: Vec<_> = reds.iter().map(field).collect();
    let mut s = super::reduction::data_struct(&site.ty, what, &fields);
    let _ = writeln!(
        s,
        "__shared__ {} {}[32]; /* one value per warp of the team */",
        site.ty, site.slots
    );
    s
}

fn field(r: &GenRed) -> super::reduction::Field {
    super::reduction::Field::new(r.ty.type_name(), r.op, r.name.clone(), r.arith)
}

fn red_list(reds: &[GenRed]) -> String {
    crate::ir::generic::red_list(reds)
}

/// `auto &outer = name;` and the private copy of `name` that starts at
/// its value (firstprivate).
pub fn first_copy(ty: &CType, name: &str, outer: &str, out: &mut String, ind: &str) {
    let _ = writeln!(out, "{ind}auto &{outer} = {name};");
    if ty.is_scalar() {
        let _ = writeln!(out, "{ind}{} = {outer};", ty.declare(name));
    } else {
        let _ = writeln!(out, "{ind}{};", ty.declare(name));
        let _ = writeln!(out, "{ind}memcpy({name}, {outer}, sizeof {name});");
    }
}

/// Private copies of `privs`; returns (variable, outer name) of the
/// lastprivate ones.
pub fn privates(
    privs: &[OPriv],
    namer: &mut Namer,
    out: &mut String,
    ind: &str,
) -> Vec<(String, String)> {
    let mut lastp = Vec::new();
    for p in privs {
        let outer = namer.fresh(&format!("p2c_outer_{}", p.name));
        if p.first {
            first_copy(&p.ty, &p.name, &outer, out, ind);
        } else {
            if p.last {
                let _ = writeln!(out, "{ind}auto &{outer} = {};", p.name);
            }
            let _ = writeln!(out, "{ind}{};", p.ty.declare(&p.name));
        }
        if p.last {
            lastp.push((p.name.clone(), outer));
        }
    }
    lastp
}

/// Each thread's copies of `reds` at the identity (shadowing the shared
/// variables).
pub fn red_privates(reds: &[GenRed], out: &mut String, ind: &str) {
    let _ = writeln!(
        out,
        "{ind}/* {}: each thread's private copy starts at the operator's identity */",
        red_list(reds)
    );
    for r in reds {
        out.push_str(&super::reduction::declare_identity(
            ind,
            &r.ty.declare(&r.name),
            &r.name,
            &field(r),
        ));
    }
}

/// Every thread of the team: its copies to its warp's tree, the warp's
/// value to the site's slot. Each variable gets its own tree
/// (`p2c_team_warp_tree`): one tree of the packed value keeps every field
/// and its shuffled partner live at once, the register peak of kernels
/// with several reductions. A complex variable's parts combine together
/// (complex `*`), so a construct with one keeps the packed tree
/// (`p2c_team_red_warps`). Either way a warp's combines come in the same
/// order.
pub fn red_warps(site: &RedSite, reds: &[GenRed], tid: &str, team: &str, ind: &str) -> String {
    let mut out = String::new();
    let v = &site.value;
    let packed = reds.iter().any(|r| r.arith.is_complex());
    let how = if packed {
        "combine the private copies of each warp"
    } else {
        "combine the private copies of each warp, one tree per variable"
    };
    let _ = writeln!(
        out,
        "{ind}{{ /* {}: {how}; one value per warp in {} */",
        red_list(reds),
        site.slots
    );
    if !packed {
        for r in reds {
            let _ = writeln!(
                out,
                "{ind}    p2c_team_warp_tree<{}, {}>({n}, {tid}, {team});",
                r.op.functor(),
                r.ty.type_name(),
                n = r.name
            );
        }
    }
    let _ = writeln!(out, "{ind}    {} {v};", site.ty);
    for r in reds {
        if r.arith.is_complex() {
            let _ = writeln!(
                out,
                "{ind}    {v}.{} = __real__ {n};\n{ind}    {v}.{} = __imag__ {n};",
                super::reduction::re_member(&r.name),
                super::reduction::im_member(&r.name),
                n = r.name
            );
        } else {
            let _ = writeln!(out, "{ind}    {v}.{n} = {n};", n = r.name);
        }
    }
    if packed {
        let _ = writeln!(
            out,
            "{ind}    p2c_team_red_warps({v}, {}, {tid}, {team});",
            site.slots
        );
    } else {
        let _ = writeln!(
            out,
            "{ind}    p2c_team_red_store({v}, {}, {tid}); /* lane 0: the warp's value */",
            site.slots
        );
    }
    let _ = writeln!(out, "{ind}}}");
    out
}

/// Thread 0, after a barrier: the warps' values into `targets`.
pub fn red_fold(
    site: &RedSite,
    reds: &[GenRed],
    targets: &[String],
    tid: &str,
    team: &str,
    ind: &str,
    into: &str,
) -> String {
    let mut out = String::new();
    let v = &site.value;
    let _ = writeln!(
        out,
        "{ind}if ({tid} == 0u) {{ /* {}: thread 0 combines the team's value into the {into} */",
        red_list(reds)
    );
    let _ = writeln!(
        out,
        "{ind}    const {} {v} = p2c_team_red_value({}, {team});",
        site.ty, site.slots
    );
    for (r, t) in reds.iter().zip(targets) {
        if r.arith.is_complex() {
            out.push_str(&super::reduction::complex_combine(
                &format!("{ind}    "),
                &field(r),
                (&format!("__real__ {t}"), &format!("__imag__ {t}")),
                (
                    &format!("{v}.{}", super::reduction::re_member(&r.name)),
                    &format!("{v}.{}", super::reduction::im_member(&r.name)),
                ),
            ));
            continue;
        }
        let _ = writeln!(
            out,
            "{ind}    {t} = {}::combine<{}>({t}, {v}.{});",
            r.op.functor(),
            r.ty.type_name(),
            r.name
        );
    }
    let _ = writeln!(out, "{ind}}}");
    out
}

/// Where a loop body's text starts: its own start, or the pragma of a
/// nested `simd` between the loop's header and an unbraced body (whose
/// edit would otherwise not lie inside the rendered span).
pub fn body_from(body: Span, header: Span, simds: &[Span]) -> usize {
    simds
        .iter()
        .filter(|p| p.start >= header.start && p.end <= body.start)
        .map(|p| p.start)
        .min()
        .unwrap_or(body.start)
}

/// How one worksharing loop's reductions end.
pub enum RedEnd<'a> {
    /// The construct's own clause: warps' values to the slots only; the
    /// fold comes after barrier 4 at the end of the outlined body.
    AtJoin(&'a RedSite),
    /// A nested `for`: team barrier, thread 0 folds into the shared
    /// variable, team barrier.
    Inside(&'a RedSite),
    None,
}

/// A worksharing loop over the team: threads `tid` of `team`.
#[allow(clippy::too_many_arguments)]
pub fn ws_loop(
    l: &OLoop,
    file: &SourceFile,
    edits: &[Edit],
    simds: &[Span],
    tid: &str,
    team: &str,
    red: RedEnd<'_>,
    namer: &mut Namer,
) -> String {
    let ind = "    ";
    let mut s = String::new();
    let (per, total) =
        region::nest_bounds(l.nest.iter().map(|(lp, ty)| (lp, ty)), namer, &mut s, ind);
    // A loop variable in lastprivate has its copy in the loop already.
    let is_var = |n: &str| l.nest.iter().any(|(lp, _)| lp.var == n);
    let own: Vec<OPriv> = l
        .privs
        .iter()
        .filter(|p| !is_var(&p.name))
        .cloned()
        .collect();
    let mut lastp = privates(&own, namer, &mut s, ind);
    for p in l.privs.iter().filter(|p| p.last && is_var(&p.name)) {
        let outer = namer.fresh(&format!("p2c_outer_{}", p.name));
        let _ = writeln!(s, "{ind}auto &{outer} = {};", p.name);
        lastp.push((p.name.clone(), outer));
    }
    let mut red_outer = Vec::new();
    if !l.reds.is_empty() {
        if matches!(red, RedEnd::Inside(_)) {
            for r in &l.reds {
                let outer = namer.fresh(&format!("p2c_outer_{}", r.name));
                let _ = writeln!(s, "{ind}auto &{outer} = {};", r.name);
                red_outer.push(outer);
            }
        }
        red_privates(&l.reds, &mut s, ind);
    }
    let last = namer.fresh("p2c_last");
    if !lastp.is_empty() {
        let _ = writeln!(s, "{ind}bool {last} = false;");
    }
    let it = namer.fresh("p2c_iter");
    let (close, ind2) = chunk_head(&l.chunk, &it, &total, tid, team, namer, &mut s, ind);
    if !lastp.is_empty() {
        let _ = writeln!(s, "{ind2}{last} = {it} == {total} - 1u;");
    }
    let depth = l.nest.len();
    let rest = namer.fresh("p2c_rest");
    if depth > 1 {
        let _ = writeln!(s, "{ind2}unsigned long long {rest} = {it};");
    }
    let (inner_loop, _) = &l.nest[depth - 1];
    let body = inner_loop.body;
    let from = body_from(body, inner_loop.span, simds);
    let body_text = apply(&file.text, Span::new(from, body.end), edits);
    for idx in (0..depth).rev() {
        let (lp, ty) = &l.nest[idx];
        let _ = writeln!(
            s,
            "{ind2}{}{} = {};",
            region::unused_mark(&body_text, &lp.var),
            ty.declare(&lp.var),
            region::nest_var_value(lp, ty, &per[idx], idx, depth, &it, &rest)
        );
        if depth > 1 && idx > 0 {
            let _ = writeln!(s, "{ind2}{rest} /= {};", per[idx].2);
        }
    }
    let _ = writeln!(s, "{ind2}{}", region::reindent(&body_text, &ind2));
    let _ = writeln!(s, "{ind}{close}");
    match red {
        RedEnd::AtJoin(site) => s.push_str(&red_warps(site, &l.reds, tid, team, ind)),
        RedEnd::Inside(site) => {
            s.push_str(&red_warps(site, &l.reds, tid, team, ind));
            let _ = writeln!(
                s,
                "{ind}p2c_team_barrier({team}); /* the warps' values are in {} */",
                site.slots
            );
            s.push_str(&red_fold(
                site,
                &l.reds,
                &red_outer,
                tid,
                team,
                ind,
                "shared variable",
            ));
        }
        RedEnd::None => {}
    }
    lastprivate_out(l, &per, &lastp, &last, &mut s, ind);
    format!("{{\n{s}}}")
}

/// The `for` line(s) that spread the iterations `it` over the team's
/// threads as the schedule says; returns the closing text and the body's
/// indentation.
#[allow(clippy::too_many_arguments)]
fn chunk_head(
    chunk: &Chunk,
    it: &str,
    total: &str,
    tid: &str,
    team: &str,
    namer: &mut Namer,
    s: &mut String,
    ind: &str,
) -> (String, String) {
    let mut close = "}".to_string();
    let mut ind2 = format!("{ind}    ");
    match chunk {
        // Not unrolled (P2C_NO_UNROLL), as generic mode's team loops
        // (emit/counter.rs `team_head`): `omp_orphan_reduction_small`'s
        // `main_L45` 32 registers with nvcc's unrolling, 30 without.
        Chunk::Cyclic => {
            let _ = writeln!(
                s,
                "{ind}P2C_NO_UNROLL\n{ind}for (unsigned long long {it} = {tid}; {it} < {total}; {it} += {team}) {{"
            );
        }
        Chunk::Block => {
            let ch = namer.fresh("p2c_chunk");
            let _ = writeln!(
                s,
                "{ind}const unsigned long long {ch} = ({total} + {team} - 1u) / {team}; /* schedule(static): one chunk per thread */"
            );
            let _ = writeln!(
                s,
                "{ind}P2C_NO_UNROLL\n{ind}for (unsigned long long {it} = (unsigned long long){tid} * {ch}; {it} < {total} && {it} < ((unsigned long long){tid} + 1u) * {ch}; {it}++) {{"
            );
        }
        Chunk::Size(c) => {
            let ch = namer.fresh("p2c_chunk");
            let c0 = namer.fresh("p2c_first");
            let _ = writeln!(
                s,
                "{ind}const unsigned long long {ch} = (long long)({c}) < 1 ? 1u : (unsigned long long)({c}); /* chunks round-robin over the team */"
            );
            let _ = writeln!(
                s,
                "{ind}for (unsigned long long {c0} = (unsigned long long){tid} * {ch}; {c0} < {total}; {c0} += (unsigned long long){team} * {ch}) {{"
            );
            let _ = writeln!(
                s,
                "{ind}    for (unsigned long long {it} = {c0}; {it} < {total} && {it} < {c0} + {ch}; {it}++) {{"
            );
            close = format!("    }}\n{ind}}}");
            ind2 = format!("{ind}        ");
        }
    }
    (close, ind2)
}

/// After the loop: the thread that ran the last iteration copies each
/// lastprivate value out (a loop variable: its value after the whole nest).
fn lastprivate_out(
    l: &OLoop,
    per: &[(String, String, String)],
    lastp: &[(String, String)],
    last: &str,
    s: &mut String,
    ind: &str,
) {
    for (name, outer) in lastp {
        match l.nest.iter().zip(per).find(|((lp, _), _)| &lp.var == name) {
            // A loop variable: its value after the whole nest.
            Some(((lp, ty), (lb, step, trip))) => {
                let sign = if lp.test.increasing() { "+" } else { "-" };
                let t = ty.type_name();
                let value = super::fold::scaled(&t, trip, step);
                let _ = writeln!(
                    s,
                    "{ind}if ({last})\n{ind}    {outer} = ({t})({lb} {sign} {value});"
                );
            }
            None => {
                let _ = writeln!(s, "{ind}if ({last})\n{ind}    {outer} = {name};");
            }
        }
    }
}
