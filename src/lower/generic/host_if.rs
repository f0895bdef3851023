//! The `if` clause of a generic-mode compute construct. When the condition
//! is false the region runs on the host (OpenMP 5.2 `target`, OpenACC 3.3
//! 2.5.5: "executed on the local thread"): the host block becomes
//! `if (cond) { map, launch, unmap } else { the block as written }`, with
//! the construct's private and firstprivate scalars privatised around it by
//! the host emitter (`emit::region`, as for SPMD loops). The condition is
//! evaluated once, on the host, before any mapping.
//!
//! The block as written is only right on the host when its nested
//! directives mean the same there, so this module checks them and says
//! what the host copy rewrites: OpenMP constructs nested in `target` or
//! `target parallel` stay as written (the host compiler's OpenMP runs them,
//! one thread being a valid team for `target parallel`'s block); OpenACC
//! `loop` constructs become comments (one thread runs them in order, which
//! a loop's independent iterations and its reductions allow; the host
//! compiler refuses `acc loop` outside a compute construct), and so do
//! OpenACC atomics (`emit::host_fallback`: the driver lowers atomics apart
//! from the other nested directives). What it cannot
//! vouch for stays refused (E0901, located): `target teams` (the host would
//! run a league of teams), `if(target: ...)` on `target parallel` (the host
//! would run a team of threads), a modifier other than `target`, an OpenMP
//! `reduction` on the construct, reductions of complex values or arrays,
//! nested OpenACC directives other than `loop` and `atomic`, `private` on a
//! nested `acc loop`, privatised arrays, and the combined loop constructs
//! split into a compute construct and its loop. OpenACC scalar reductions
//! on the construct are the one local thread's: a private copy at the
//! identity, combined into the original after the block
//! (`emit::host_fallback`).

use super::construct::Construct;
use super::{not_supported, Ctx};
use crate::directives::{ClauseArgs, Model};
use crate::ir::generic::GenKind;
use crate::ir::Region;
use crate::sema::sharing::Attr;
use crate::source::Span;

/// What the `if` clause (or `device(n)`) asks of the host block.
pub(super) struct HostIf {
    /// The condition: the `if` clause as written and the device check.
    pub cond: String,
    /// Edits of the host copy of the block: (pragma, replacement).
    pub edits: Vec<(Span, String)>,
    /// `device(n)` with no `if` clause: (number, place). A block with no
    /// host version then runs on device 0 only instead of being refused.
    pub device_only: Option<(String, String)>,
}

impl HostIf {
    fn gpu_only(dev: (String, String)) -> HostIf {
        HostIf {
            cond: String::new(),
            edits: Vec::new(),
            device_only: Some(dev),
        }
    }
}

/// Checks the construct's `if` and `device` clauses and its block; `None`
/// when there is neither or when one is refused (the diagnostics are
/// pushed).
pub(super) fn check(cx: &mut Ctx<'_>, rc: &Construct<'_>) -> Option<HostIf> {
    let d = rc.d;
    let dev = crate::lower::device_clause::device_arg(cx.file, d, cx.diags)?;
    let Some(c) = d.clause("if") else {
        let dev = dev?;
        return Some(match host_version(cx, rc, c_span(d), None) {
            Ok(edits) => HostIf {
                cond: crate::lower::device_clause::with_host(&dev),
                edits,
                device_only: Some(dev),
            },
            Err(_) => HostIf::gpu_only(dev),
        });
    };
    let ClauseArgs::Expr { modifier, expr } = &c.args else {
        return None;
    };
    match host_version(cx, rc, c.name_span, modifier.as_ref()) {
        Ok(edits) => Some(HostIf {
            cond: match &dev {
                Some(dev) => format!(
                    "({}) && {}",
                    expr.text,
                    crate::lower::device_clause::with_host(dev)
                ),
                None => expr.text.clone(),
            },
            edits,
            device_only: None,
        }),
        Err(errs) => {
            cx.diags.extend(errs);
            None
        }
    }
}

/// Where `device` is written (the clause's name).
fn c_span(d: &crate::directives::Directive) -> Span {
    d.clause("device").map_or(d.name_span, |c| c.name_span)
}

/// The edits of the block's host version, or why it has none (one
/// diagnostic per reason, about the `if` clause at `at`).
fn host_version(
    cx: &Ctx<'_>,
    rc: &Construct<'_>,
    at: Span,
    modifier: Option<&crate::directives::Word>,
) -> Result<Vec<(Span, String)>, Vec<crate::diag::Diagnostic>> {
    let d = rc.d;
    let mut errs = Vec::new();
    let mut refuse = |at: Span, msg: String| errs.push(not_supported(at, msg));
    let what = format!("{} {}", d.model.as_str(), d.name);
    if let Some(m) = modifier {
        if !(d.model == Model::Omp && m.text == "target") {
            refuse(
                m.span,
                format!("`if({}: ...)` on `{what}` is not supported yet", m.text),
            );
        } else if rc.kind == GenKind::OmpParallel {
            refuse(
                m.span,
                format!("`if(target: ...)` on `{what}` with a structured block is not supported yet (the host would run the block with a team of threads)"),
            );
        }
    }
    // A league of one team, its initial thread running the block, is what
    // the host may do for a teams construct with no `num_teams` and no
    // nested construct (the number of teams is then the
    // implementation's choice).
    let one_team_ok = rc.nested.is_empty()
        && d.clause("num_teams").is_none()
        && d.clause("thread_limit").is_none();
    if rc.kind == GenKind::OmpTeams && !one_team_ok {
        refuse(
            at,
            format!("clause `if` on `{what}` with a structured block is not supported yet (the host would run the block with a league of teams)"),
        );
    }
    // OpenACC's construct reductions are one gang's on the host
    // (`emit::host_fallback`); OpenMP's are those of `target teams` (refused
    // above) and `target parallel` (a team of threads on the host).
    if let Some(r) = d.clause("reduction").filter(|_| d.model == Model::Omp) {
        refuse(
            r.name_span,
            format!("`reduction` on `{what}` with an `if` clause is not supported yet"),
        );
    }
    let mut edits = Vec::new();
    if let (true, Some(t)) = (rc.kind == GenKind::OmpTeams && one_team_ok, rc.teams) {
        // The merged `teams` of `target { teams ... }`: the host copy is the
        // block of its one team.
        edits.push((
            t.directive.span,
            format!(
                "/* {}: a league of one team on the host */",
                crate::source::pragma_text::pragma_one_line(cx.file.slice(t.directive.span))
                    .replace("*/", "* /")
            ),
        ));
    }
    for n in &rc.nested {
        let nd = &n.directive;
        if !nd.span.within(rc.block) {
            refuse(
                at,
                format!("clause `if` on a combined construct whose loop holds directives is not supported yet (`{what}` with `{} {}`)", nd.model.as_str(), nd.name),
            );
            continue;
        }
        match nd.model {
            Model::Omp => {
                // `target teams` is refused above, once; a nested `teams`
                // by `nested_constructs`.
                if rc.kind != GenKind::OmpTeams
                    && nd.name != "teams"
                    && !nd.name.starts_with("teams ")
                    && nd.words().any(|w| w == "distribute")
                {
                    refuse(
                        nd.name_span,
                        format!(
                            "`omp {}` in a region with an `if` clause is not supported yet",
                            nd.name
                        ),
                    );
                }
            }
            Model::Acc if nd.name == "loop" => {
                if let Some(p) = nd.clause("private") {
                    refuse(
                        p.name_span,
                        "`private` on an `acc loop` in a region with an `if` clause is not supported yet"
                            .to_string(),
                    );
                }
                edits.push((
                    nd.span,
                    format!(
                        "/* {}: one thread runs the loop in order on the host */",
                        crate::source::pragma_text::pragma_one_line(cx.file.slice(nd.span))
                            .replace("*/", "* /")
                    ),
                ));
            }
            Model::Acc => refuse(
                nd.name_span,
                format!(
                    "`acc {}` in a region with an `if` clause is not supported yet",
                    nd.name
                ),
            ),
        }
    }
    if errs.is_empty() {
        Ok(edits)
    } else {
        Err(errs)
    }
}

/// Gives the lowered region its condition and the host copy's edits;
/// refuses privatised arrays (the host copy would use the originals) and
/// the other things the host copy cannot do, or, for `device(n)` with no
/// `if` clause, keeps the region on device 0 only.
pub(super) fn finish(cx: &mut Ctx<'_>, hi: Option<HostIf>, mut r: Region) -> Option<Region> {
    let Some(hi) = hi else {
        return Some(r);
    };
    let host_gpu_only = hi.cond.is_empty();
    if let (true, Some(dev)) = (host_gpu_only, &hi.device_only) {
        r.device_check = Some(crate::lower::device_clause::gpu_only(dev));
        return Some(r);
    }
    if let Some((at, msg)) = no_host_copy(&r) {
        match &hi.device_only {
            Some(dev) => {
                r.device_check = Some(crate::lower::device_clause::gpu_only(dev));
                return Some(r);
            }
            None => {
                cx.diags.push(not_supported(at, msg));
                return None;
            }
        }
    }
    r.if_cond = Some(hi.cond);
    if let Some(g) = r.generic.as_mut() {
        g.host_edits = hi.edits;
    }
    Some(r)
}

/// Why the lowered region has no host copy: privatised arrays,
/// firstprivate pointers or arrays the block names, complex or array
/// reductions.
fn no_host_copy(r: &Region) -> Option<(Span, String)> {
    if let Some(a) = r.array_privates.first() {
        return Some((
            a.span,
            format!(
                "a private copy of `{}` in a region with an `if` clause is not supported yet",
                a.text
            ),
        ));
    }
    // The host copy privatises scalars (`emit::region`); any other
    // firstprivate variable the block names would be the original there.
    if let Some(v) = r.vars.iter().find(|v| {
        v.attr == Attr::Firstprivate && !v.sym.ty.is_scalar() && r.body_names.contains(&v.sym.name)
    }) {
        return Some((
            v.span,
            format!(
                "firstprivate `{}` (a pointer or an array) in a region with an `if` clause is not supported yet",
                v.sym.name
            ),
        ));
    }
    // The host copy reduces scalars of a real type into the original.
    r.reductions
        .iter()
        .find(|x| x.arith.is_complex())
        .map(|x| (x.span, x.var.clone()))
        .or_else(|| r.array_reductions.first().map(|a| (a.span, a.var.clone())))
        .map(|(at, var)| {
            (
                at,
                format!("the reduction of `{var}` (complex or array) on a construct with an `if` clause is not supported yet"),
            )
        })
}
