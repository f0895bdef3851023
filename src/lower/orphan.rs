//! Orphaned parallel regions: `#pragma omp parallel [for]` in a device
//! function (`declare target`, or called from offloaded code), outside any
//! construct of its own function.
//!
//! When the block's master calls such a function from the sequential part
//! of a generic-mode region, OpenMP makes the region active: the team forks.
//! The master cannot lend its locals to the other threads (a thread's local
//! memory is private), so the variables of the function the region uses
//! (parameters and locals) are copied into the block's orphan frame, a
//! `__shared__` byte array at offsets computed here, exactly as generic mode
//! stages the kernel's own locals; the master publishes the region id and
//! the team size in the kernel's fork word (through `p2c_orphan.fork`), every
//! waiting worker dispatches the region id to the outlined body (a
//! `__device__` function that binds each variable to its frame slot by
//! reference), and after the join the master copies the values back.
//!
//! Anywhere else (host code, an SPMD kernel, a thread of a parallel region,
//! a block without a master) the region runs with the calling thread only,
//! as OpenMP specifies for a parallel region nested in an active one: the
//! original statement under its pragma, so the host compiler still
//! parallelises the host's calls. A region with clauses other than
//! `num_threads`, `if`, `shared` and `default(shared)`, or with constructs
//! nested in it, always runs that way, with warning W0004.

use super::orphan_clauses as oc;
use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, Model};
use crate::front::c::Node;
use crate::front::{Attached, CTree};
use crate::ir::generic::GenRed;
use crate::ir::orphan::{Inner, OLoop, OPriv};
use crate::ir::orphan::{Orphan, OrphanPlan, OrphanVar};
use crate::sema::calls;
use crate::sema::layout::{self, Consts};
use crate::sema::{symbols, uses, Deriv, Storage};
use crate::source::{SourceFile, Span};
use std::collections::BTreeSet;

/// Region ids of orphaned regions start here: a kernel's own parallel
/// regions are numbered from 1, and the fork word holds 16 bits of id.
pub const FIRST_ID: u32 = 0x8000;

fn span_of(n: Node<'_>) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

/// Whether a line of C is an OpenMP `parallel` pragma (`# pragma omp parallel ...`).
fn parallel_pragma_line(line: &str) -> bool {
    let t = line.trim_start();
    let Some(rest) = t.strip_prefix('#') else {
        return false;
    };
    let mut w = rest.split_whitespace();
    w.next() == Some("pragma") && w.next() == Some("omp") && w.next() == Some("parallel")
}

/// Functions of the file and the functions each calls.
fn call_graph(tree: &CTree, text: &str) -> Vec<(String, Option<Span>, BTreeSet<String>)> {
    let Some(root) = tree.root() else {
        return vec![];
    };
    let fns = calls::file_functions(root, text);
    let mut out = Vec::new();
    for (name, f) in fns {
        let mut callees = BTreeSet::new();
        if let Some(b) = f.body {
            if let Some(node) = root.descendant_for_byte_range(b.start, b.end) {
                let (_, c) = uses::free_identifiers(node, text);
                callees.extend(c.into_iter().map(|(n, _)| n));
            }
        }
        out.push((name, f.body, callees));
    }
    out
}

/// Functions that reach one of `seeds` through calls (the seeds included).
fn reverse_closure(
    graph: &[(String, Option<Span>, BTreeSet<String>)],
    seeds: BTreeSet<String>,
) -> BTreeSet<String> {
    let mut set = seeds;
    loop {
        let before = set.len();
        for (name, _, callees) in graph {
            if !set.contains(name) && callees.iter().any(|c| set.contains(c)) {
                set.insert(name.clone());
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// Whether a region calling `region_calls` can reach a function of the file
/// whose body holds an OpenMP `parallel` pragma (generic mode then gives
/// the block workers that such a region can fork). Decided before the
/// orphaned regions themselves are lowered, from the text.
pub fn reaches_parallel(file: &SourceFile, tree: &CTree, region_calls: &[(String, Span)]) -> bool {
    if region_calls.is_empty() || !file.text.contains("parallel") {
        return false;
    }
    let graph = call_graph(tree, &file.text);
    let seeds: BTreeSet<String> = graph
        .iter()
        .filter(|(_, body, _)| {
            body.is_some_and(|b| {
                file.text
                    .get(b.start..b.end)
                    .is_some_and(|t| t.lines().any(parallel_pragma_line))
            })
        })
        .map(|(n, _, _)| n.clone())
        .collect();
    if seeds.is_empty() {
        return false;
    }
    let callers = reverse_closure(&graph, seeds);
    region_calls.iter().any(|(n, _)| callers.contains(n))
}

/// `omp_get_thread_num()` / `omp_get_num_threads()` calls under `n`.
fn rt_calls(n: Node<'_>, text: &str, out: &mut Vec<(Span, bool)>) {
    if n.kind() == "call_expression" {
        let f = n.child_by_field_name("function");
        let a = n.child_by_field_name("arguments");
        if let (Some(f), Some(a)) = (f, a) {
            if f.kind() == "identifier" && a.named_child_count() == 0 {
                match text.get(f.start_byte()..f.end_byte()) {
                    Some("omp_get_thread_num") => {
                        out.push((span_of(n), true));
                        return;
                    }
                    Some("omp_get_num_threads") => {
                        out.push((span_of(n), false));
                        return;
                    }
                    _ => {}
                }
            }
        }
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        rt_calls(k, text, out);
    }
}

fn one_thread(at: Span, function: &str, why: &str) -> Diagnostic {
    Diagnostic::new(
        codes::ORPHAN_ONE_THREAD,
        at,
        format!(
            "this parallel region in the device function `{function}()` runs with the calling thread only on the device: {why}"
        ),
    )
    .with_label("a team of one thread on the device")
    .with_note("results are correct; the host's calls still run it with the host's threads")
}

/// Finds the orphaned parallel regions of the device functions `device_fns`.
/// `regions` are the offloaded regions (pragma start .. statement end).
pub fn collect(
    file: &SourceFile,
    tree: &CTree,
    attached: &[Attached],
    device_fns: &BTreeSet<String>,
    regions: &[Span],
    diags: &mut Vec<Diagnostic>,
) -> OrphanPlan {
    let mut plan = OrphanPlan::default();
    let Some(root) = tree.root() else {
        return plan;
    };
    let consts = Consts::from_text(&file.text);
    for at in attached {
        let Some((fname, fspan, stmt)) = orphaned(at, attached, device_fns, regions) else {
            continue;
        };
        let d = &at.directive;
        let id = FIRST_ID + plan.orphans.len() as u32;
        let found = Found {
            file,
            root,
            attached,
            at,
            fname,
            fspan,
            stmt,
        };
        match found.orphan(id, &consts) {
            Ok(Some((o, frame))) => {
                plan.frame_bytes = plan.frame_bytes.max(frame);
                plan.orphans.push(o);
            }
            Ok(None) => {}
            Err(why) => diags.push(one_thread(d.name_span, fname, &why)),
        }
    }
    if !plan.orphans.is_empty() {
        let graph = call_graph(tree, &file.text);
        let seeds = plan.orphans.iter().map(|o| o.function.clone()).collect();
        plan.callers = reverse_closure(&graph, seeds);
    }
    plan
}

/// An OpenMP `parallel` / `parallel for` in a device function, outside every
/// offloaded region and not nested in another construct of the function:
/// (function name, function span, statement).
fn orphaned<'a>(
    at: &'a Attached,
    attached: &[Attached],
    device_fns: &BTreeSet<String>,
    regions: &[Span],
) -> Option<(&'a String, Span, Span)> {
    let d = &at.directive;
    if d.model != Model::Omp || !matches!(d.name.as_str(), "parallel" | "parallel for") {
        return None;
    }
    let (Some((fname, fspan)), Some(stmt)) = (&at.function, at.stmt) else {
        return None;
    };
    if !device_fns.contains(fname) || regions.iter().any(|r| d.span.within(*r)) {
        return None;
    }
    // Nested in another construct of the function: not orphaned here.
    let whole = Span::new(d.span.start, stmt.end);
    let nested = attached.iter().any(|o| {
        o.directive.span != d.span
            && o.function.as_ref().map(|f| &f.0) == Some(fname)
            && o.stmt
                .is_some_and(|s| whole.within(Span::new(o.directive.span.start, s.end)))
    });
    (!nested).then_some((fname, *fspan, stmt))
}

/// One orphaned construct found by [`orphaned`], with what lowering it reads.
struct Found<'a, 't> {
    file: &'a SourceFile,
    root: Node<'t>,
    attached: &'a [Attached],
    at: &'a Attached,
    fname: &'a String,
    fspan: Span,
    stmt: Span,
}

impl Found<'_, '_> {
    /// The orphan and the size of its frame; `Err(why)` when its team runs
    /// with the calling thread only.
    fn orphan(&self, id: u32, consts: &Consts) -> Result<Option<(Orphan, u64)>, String> {
        let (d, text, root) = (&self.at.directive, self.file.text.as_str(), self.root);
        let Some(snode) = root.descendant_for_byte_range(self.stmt.start, self.stmt.end) else {
            return Ok(None);
        };
        let syms = symbols::visible_at(root, text, snode);
        let is_for = d.name == "parallel for";
        let (lp, privs, reds) = team_clauses(d, snode, text, &syms)?;
        let whole = Span::new(d.span.start, self.stmt.end);
        let inner = inner_constructs(self.attached, d, whole, is_for, root, text)?;
        let all_privs: Vec<&OPriv> = privs
            .iter()
            .chain(lp.iter().flat_map(|l| l.privs.iter()))
            .collect();
        let all_reds: Vec<&GenRed> = reds
            .iter()
            .chain(lp.iter().flat_map(|l| l.reds.iter()))
            .collect();
        let (used, _) = uses::free_identifiers(snode, text);
        let names = shared_names(&used, &all_privs, &all_reds);
        let shared = Sharing {
            privs: &all_privs,
            reds: &all_reds,
            lp: lp.as_ref(),
            syms: &syms,
            consts,
        };
        let (vars, frame) = shared.frame(self, &names)?;
        if let Some(why) = inner_reductions_shared(&inner, &vars, &privs, &reds) {
            return Err(why);
        }
        let mut rc = Vec::new();
        rt_calls(snode, text, &mut rc);
        let clause_text = |n: &str| d.clause(n).and_then(|c| c.expr()).map(|e| e.text.clone());
        let o = Orphan {
            id,
            function: self.fname.clone(),
            pragma: d.span,
            stmt: self.stmt,
            line: self.file.origin(d.span.start).1,
            construct: crate::source::pragma_text::pragma_one_line(self.file.slice(d.span))
                .trim_start_matches("#pragma ")
                .to_string(),
            num_threads: clause_text("num_threads"),
            if_cond: clause_text("if"),
            lp,
            privs,
            reds,
            inner,
            vars,
            rt_calls: rc,
            fn_end: function_end(root, self.fspan),
            outlined: String::new(),
            shadows: Vec::new(),
        };
        Ok(Some((o, frame)))
    }
}

/// The construct's clauses as a team lowers them: the worksharing loop of
/// `parallel for`, or the private and reduction items of `parallel`.
#[allow(clippy::type_complexity)]
fn team_clauses(
    d: &Directive,
    snode: Node<'_>,
    text: &str,
    syms: &symbols::Scope,
) -> Result<(Option<OLoop>, Vec<OPriv>, Vec<GenRed>), String> {
    let is_for = d.name == "parallel for";
    let allowed: Vec<&str> = if is_for {
        oc::PARALLEL_CLAUSES
            .iter()
            .chain(oc::LOOP_CLAUSES)
            .copied()
            .filter(|c| *c != "nowait")
            .collect()
    } else {
        oc::PARALLEL_CLAUSES.to_vec()
    };
    if let Some(c) = oc::unsupported_clause(d, &allowed) {
        return Err(format!(
            "its `{}` clause is not lowered for a team yet",
            c.name
        ));
    }
    if is_for {
        return Ok((
            Some(oc::ws_loop(d, String::new(), snode, text, syms)?),
            vec![],
            vec![],
        ));
    }
    match (oc::privates(d, syms), oc::reductions(d, syms)) {
        (Ok(p), Ok(r)) => Ok((None, p, r)),
        (Err(why), _) | (_, Err(why)) => Err(why),
    }
}

/// The variables the team shares: those the statement uses (and whether it
/// writes them), and the originals of reductions and lastprivates, which
/// the team writes.
fn shared_names(used: &[uses::Use], privs: &[&OPriv], reds: &[&GenRed]) -> Vec<(String, bool)> {
    let mut names: Vec<(String, bool)> = used.iter().map(|u| (u.name.clone(), u.written)).collect();
    for n in reds
        .iter()
        .map(|r| &r.name)
        .chain(privs.iter().filter(|p| p.last).map(|p| &p.name))
    {
        match names.iter_mut().find(|(m, _)| m == n) {
            Some(e) => e.1 = true,
            None => names.push((n.clone(), true)),
        }
    }
    names
}

/// What decides which variables go into an orphan's frame.
struct Sharing<'a> {
    privs: &'a [&'a OPriv],
    reds: &'a [&'a GenRed],
    lp: Option<&'a OLoop>,
    syms: &'a symbols::Scope,
    consts: &'a Consts,
}

impl Sharing<'_> {
    /// The frame the master fills for the team: the shared variables of the
    /// function, laid out in order, and its size.
    fn frame(
        &self,
        found: &Found,
        names: &[(String, bool)],
    ) -> Result<(Vec<OrphanVar>, u64), String> {
        let (fname, fspan) = (found.fname, found.fspan);
        let mut vars = Vec::new();
        let mut offset = 0u64;
        for (name, written) in names {
            let privatized = self.privs.iter().find(|p| &p.name == name);
            let loop_var = self
                .lp
                .is_some_and(|l| l.nest.iter().any(|(c, _)| &c.var == name));
            if privatized.is_some_and(|p| !p.first && !p.last)
                || loop_var && !privatized.is_some_and(|p| p.last)
            {
                continue;
            }
            let must_share =
                self.reds.iter().any(|r| &r.name == name) || privatized.is_some_and(|p| p.last);
            let Some(sym) = self.syms.get(name) else {
                continue;
            };
            if sym.is_typedef || sym.ty.is_function() || !sym.decl_span.within(fspan) {
                if must_share {
                    return Err(format!(
                        "`{name}` is not a variable of {fname}() (a reduction or lastprivate over it)"
                    ));
                }
                continue;
            }
            if sym.is_static || sym.is_extern {
                return Err(format!("it uses the static variable `{}`", sym.name));
            }
            let ty = if sym.storage == Storage::Param {
                sym.ty.decayed()
            } else {
                sym.ty.clone()
            };
            let ty = oc::value_type(&ty);
            let array = matches!(ty.derivs.first(), Some(Deriv::Array(_)));
            let Ok(lay) = layout::layout_of(&ty, self.consts) else {
                return Err(format!("the size of `{}` is not known", sym.name));
            };
            offset = offset.div_ceil(lay.align.max(1)) * lay.align.max(1);
            let assert_size = layout::depends_on_macro(&ty, self.consts).then_some(lay.size);
            vars.push(OrphanVar {
                name: sym.name.clone(),
                ty,
                offset,
                copy_back: (*written || array) && !privatized.is_some_and(|p| p.first && !p.last),
                assert_size,
            });
            offset += lay.size;
        }
        Ok((vars, offset))
    }
}

/// The end of the function definition that `fspan` names.
fn function_end(root: Node<'_>, fspan: Span) -> usize {
    root.descendant_for_byte_range(fspan.start, fspan.end)
        .map(|n| {
            let mut n = n;
            while n.kind() != "function_definition" {
                match n.parent() {
                    Some(p) => n = p,
                    None => break,
                }
            }
            n.end_byte()
        })
        .unwrap_or(fspan.end)
}

/// The constructs nested in an orphaned construct (`whole`: its pragma and
/// statement): in a `parallel` block, `for` (not nested in another of
/// them), `simd` without data clauses and `barrier`; in the loop of
/// `parallel for`, `simd` only.
fn inner_constructs(
    attached: &[Attached],
    d: &crate::directives::Directive,
    whole: Span,
    is_for: bool,
    root: Node<'_>,
    text: &str,
) -> Result<Vec<Inner>, String> {
    let nested: Vec<&Attached> = attached
        .iter()
        .filter(|o| o.directive.span != d.span && o.directive.span.within(whole))
        .collect();
    let mut out = Vec::new();
    for o in &nested {
        let n = &o.directive;
        let construct =
            crate::source::pragma_text::pragma_one_line(&text[n.span.start..n.span.end])
                .trim_start_matches("#pragma ")
                .to_string();
        let why =
            || format!("the construct `{construct}` nested in it is not lowered for a team yet");
        if n.model != Model::Omp {
            return Err(why());
        }
        let enclosed = nested.iter().any(|p| {
            p.directive.span != n.span
                && p.stmt
                    .is_some_and(|s| n.span.within(Span::new(p.directive.span.start, s.end)))
        });
        match n.name.as_str() {
            "simd"
                if n.clauses
                    .iter()
                    .all(|c| matches!(c.name.as_str(), "safelen" | "simdlen" | "aligned")) =>
            {
                out.push(Inner::Simd {
                    pragma: n.span,
                    construct,
                })
            }
            "barrier" if !is_for && !enclosed => out.push(Inner::Barrier { pragma: n.span }),
            "for" if !is_for && !enclosed => {
                let Some(stmt) = o.stmt else {
                    return Err(why());
                };
                let Some(snode) = root.descendant_for_byte_range(stmt.start, stmt.end) else {
                    return Err(why());
                };
                let syms = symbols::visible_at(root, text, snode);
                if let Some(c) = oc::unsupported_clause(n, oc::LOOP_CLAUSES) {
                    return Err(format!(
                        "the `{}` clause of the nested `{construct}` is not lowered for a team yet",
                        c.name
                    ));
                }
                let l = oc::ws_loop(n, construct, snode, text, &syms)?;
                out.push(Inner::For(l));
            }
            _ => return Err(why()),
        }
    }
    Ok(out)
}

/// A reduction of a nested `for` combines into the variable the team
/// shares: a variable of the function in the orphan frame, not one the
/// `parallel` privatizes or reduces itself.
fn inner_reductions_shared(
    inner: &[Inner],
    vars: &[OrphanVar],
    privs: &[OPriv],
    reds: &[GenRed],
) -> Option<String> {
    for i in inner {
        let Inner::For(l) = i else { continue };
        for r in &l.reds {
            let shared = vars.iter().any(|v| v.name == r.name)
                && !privs.iter().any(|p| p.name == r.name)
                && !reds.iter().any(|x| x.name == r.name);
            if !shared {
                return Some(format!(
                    "the reduction over `{}` of its nested `{}` is not over a variable the team shares",
                    r.name, l.construct
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_pragma_lines() {
        assert!(parallel_pragma_line("#pragma omp parallel for"));
        assert!(parallel_pragma_line("  #  pragma omp parallel"));
        assert!(!parallel_pragma_line("#pragma omp target parallel"));
        assert!(!parallel_pragma_line("// #pragma omp parallel"));
    }
}
