//! Private copies of arrays and array sections (`Attr::ArrayPrivate`):
//! `private(c[0:n])`, `firstprivate(c[lo:n])`, `firstprivate(arr)`, and
//! OpenMP `defaultmap(firstprivate)` of an array.
//!
//! Where the copies live, and why: one area in global memory that the host
//! allocates for the launch, one slice per copy: per team (`Per::Team`, a
//! compute construct with a structured block: `acc parallel`, `omp target
//! [teams]`, whose clauses privatize per gang / team) or per thread
//! (`Per::Thread`, a loop construct, or `omp target parallel`'s block, which
//! every thread runs). A runtime-sized section has no other home (the
//! shared-memory frame is laid out at translation time), and one mechanism
//! for every size keeps the generated code simple; `--emit=sharing` says
//! "global memory, per team / per thread" with the slice's size.
//!
//! The copy is indexed as the original: the variable's name is bound to
//! `slice - lo` (a pointer, or a reference to an array of the declared
//! extent, so `sizeof` keeps its meaning), so the body is copied unchanged
//! and `c[i]` with `lo <= i < lo + len` is the copy's element `i - lo`.
//! A firstprivate copy is filled from the section mapped `to` through the
//! present table (the device copy when the data is present, as OpenACC's
//! `firstprivate` of present data reads it), by the block's threads before
//! the team's code starts (`__syncthreads`), or by each thread for its own.
//! Nothing is copied back.

use crate::ir::privarray::{ArrayPrivate, Per};
use crate::sema::sharing::{Attr, VarAttr};
use crate::sema::{CType, Deriv};
use crate::source::Span;

/// The array privatizations of a region's variables, in their order.
pub fn build(vars: &[VarAttr], per: Per) -> Vec<ArrayPrivate> {
    let mut out = Vec::new();
    for v in vars {
        let Attr::ArrayPrivate { first, sections } = &v.attr else {
            continue;
        };
        let name = &v.sym.name;
        let (lo, len) = bounds(&v.sym.ty, sections);
        let text = match sections.first() {
            None => name.clone(),
            Some(_) => format!("{name}[{lo}:{len}]"),
        };
        let elem = v.sym.ty.element();
        out.push(ArrayPrivate {
            var: name.clone(),
            ty: v.sym.ty.clone(),
            elem: CType {
                base: elem.unqualified_base(),
                derivs: vec![],
            },
            first: *first,
            lo,
            len,
            text,
            per,
            span: v.span,
        });
    }
    out
}

/// The first index and the length of a privatized section (the whole
/// array when `sections` is empty), as C expressions. sema
/// (sema/privarray.rs) only lets through a section with a length or of an
/// array of known extent, and whole arrays of known extent.
pub fn bounds(ty: &CType, sections: &[crate::directives::Section]) -> (String, String) {
    let extent = match ty.derivs.first() {
        Some(Deriv::Array(Some(n))) => Some(n.clone()),
        _ => None,
    };
    let s = sections.first();
    let lo = s
        .and_then(|s| s.lower.as_ref())
        .map(|e| e.text.clone())
        .unwrap_or_else(|| "0".into());
    let len = match (s.and_then(|s| s.length.as_ref()), &extent) {
        (Some(e), _) => e.text.clone(),
        (None, Some(n)) if s.is_some() => format!("({n}) - ({lo})"),
        (None, Some(n)) => n.clone(),
        (None, None) => "0".into(),
    };
    (lo, len)
}

/// A section in `private` / `firstprivate` of a construct nested in a
/// generic-mode region (`acc loop gang private(c[0:n])`, `acc loop vector
/// firstprivate(w[lo:n])`): checked like the compute construct's, its
/// bounds as C text. Each thread that runs the construct (the team's master
/// for a gang loop) gets `len` elements on the device heap (`p2c_vla`,
/// freed at the end of the construct's block; an exhausted heap stops the
/// kernel with a message), indexed as the original. `None`: reported.
pub fn nested_section(
    d: &crate::directives::Directive,
    first: bool,
    item: &crate::directives::ListItem,
    sym: &crate::sema::Symbol,
    symbols: &crate::sema::symbols::Scope,
    diags: &mut Vec<crate::diag::Diagnostic>,
) -> Option<(String, String)> {
    match crate::sema::privarray::attr(d, first, item, sym, symbols) {
        Ok(Attr::ArrayPrivate { sections, .. }) => Some(bounds(&sym.ty, &sections)),
        Ok(_) => None,
        Err(e) => {
            diags.push(*e);
            None
        }
    }
}

/// The copies of a loop construct's region (SPMD): one per thread. With an
/// `if` clause the host fallback would run the body on the originals, so
/// that is refused (E0901) rather than lowered without privatization.
pub fn loop_copies(
    vars: &[VarAttr],
    if_cond: &Option<String>,
    diags: &mut Vec<crate::diag::Diagnostic>,
) -> Option<Vec<ArrayPrivate>> {
    let out = build(vars, Per::Thread);
    if if_cond.is_some() {
        if let Some(a) = out.first() {
            diags.push(not_supported(
                a.span,
                format!(
                    "a private copy of `{}` in a region with an `if` clause is not supported yet",
                    a.text
                ),
            ));
            return None;
        }
    }
    Some(out)
}

/// The copies of a generic-mode region: one per team, or one per thread of
/// `omp target parallel`'s block. `defaultmap(firstprivate)` gives an array
/// one copy for the whole target region, shared by its teams: lowered when
/// the region has one team, else E0901.
pub fn generic_copies(
    vars: &[VarAttr],
    kind: crate::ir::generic::GenKind,
    blocks: &crate::ir::Size,
    diags: &mut Vec<crate::diag::Diagnostic>,
) -> Vec<ArrayPrivate> {
    let per = if kind == crate::ir::generic::GenKind::OmpParallel {
        Per::Thread
    } else {
        Per::Team
    };
    let mut out = build(vars, per);
    out.retain(|a| {
        let implicit = vars.iter().any(|v| v.sym.name == a.var && v.is_implicit());
        let one_team = *blocks == crate::ir::Size::Fixed(1);
        if implicit && !one_team && per == Per::Team {
            diags.push(not_supported(
                a.span,
                format!(
                    "`defaultmap(firstprivate)` of the array `{}` in a region with several teams is not supported yet (its one copy would be shared by the teams)",
                    a.var
                ),
            ));
            return false;
        }
        true
    });
    out
}

fn not_supported(span: Span, msg: String) -> crate::diag::Diagnostic {
    crate::diag::Diagnostic::new(crate::diag::codes::NOT_SUPPORTED, span, msg)
        .with_label("not lowered yet")
}

/// How a parallel region inside a generic-mode region sees a privatized
/// array (`--emit=sharing`'s construct rows): the team's copy is shared by
/// the team's threads; under `omp target parallel` each thread has its own.
pub fn scope_row(
    first: bool,
    kind: crate::ir::generic::GenKind,
    rule: &'static str,
    shared_rule: &'static str,
) -> (
    String,
    crate::ir::generic::VarHome,
    &'static str,
    crate::ir::generic::RuleKind,
) {
    use crate::ir::generic::{GenKind, RuleKind, VarHome};
    if kind == GenKind::OmpParallel {
        (
            if first { "firstprivate" } else { "private" }.to_string(),
            VarHome::Copies("each thread's copy, a slice of a per-launch area"),
            rule,
            RuleKind::Explicit,
        )
    } else {
        (
            "shared".to_string(),
            VarHome::Copies("the team's copy, a slice of a per-launch area"),
            shared_rule,
            RuleKind::Implicit,
        )
    }
}

/// The same for the private copies of a construct run as plain code (a
/// `seq` loop, a loop of `acc serial`): its block is the sequential part's,
/// which the parallel regions nested in it do not see.
pub fn in_order_privates_in_forks(
    in_order: &[crate::ir::generic::InOrderPrivates],
    forks: &[crate::ir::generic::Fork],
    text: &str,
    diags: &mut Vec<crate::diag::Diagnostic>,
) {
    let inside = |i: Span, o: Span| o.start <= i.start && i.end <= o.end;
    for ip in in_order {
        for p in &ip.privates {
            let used = forks.iter().filter(|f| inside(f.stmt, ip.stmt)).any(|f| {
                text.get(f.stmt.start..f.stmt.end)
                    .is_some_and(|t| crate::source::mask::mentions_word(t, &p.name))
            });
            if used {
                diags.push(not_supported(
                    p.span,
                    format!(
                        "`{}` is private to a loop that runs in order and used in a parallel region nested in it; this is not supported yet",
                        p.name
                    ),
                ).with_help(format!("declare `{}` inside the loop", p.name)));
            }
        }
    }
}

/// A `private` of a loop over the teams' masters (`acc loop gang
/// private(c)`, `omp distribute private(c)` in a generic-mode region) is
/// declared by the master inside the loop; a parallel region nested in that
/// loop would name the region's variable instead of that copy, so such a
/// use is refused (E0901) until the copy is staged in the team's frame.
pub fn master_privates_in_forks(
    master_loops: &[crate::ir::generic::WsLoop],
    forks: &[crate::ir::generic::Fork],
    text: &str,
    diags: &mut Vec<crate::diag::Diagnostic>,
) {
    let inside = |i: Span, o: Span| o.start <= i.start && i.end <= o.end;
    // The fork names the variable and has no private copy of its own.
    let names = |f: &crate::ir::generic::Fork, name: &str| {
        let own = f
            .privates
            .iter()
            .chain(f.ws.iter().flat_map(|w| w.privates.iter()))
            .any(|p| p.name == name);
        !own && text
            .get(f.stmt.start..f.stmt.end)
            .is_some_and(|t| crate::source::mask::mentions_word(t, name))
    };
    for w in master_loops {
        for p in &w.privates {
            let used = forks
                .iter()
                .filter(|f| inside(f.stmt, w.stmt))
                .any(|f| names(f, &p.name));
            if used {
                diags.push(not_supported(
                    p.span,
                    format!(
                        "`{}` is private to a loop over the teams and used in a parallel region nested in it; this is not supported yet",
                        p.name
                    ),
                ).with_help(format!(
                    "privatize `{}` on the compute construct (one copy per team), or declare it inside the loop",
                    p.name
                )));
            }
        }
    }
}

/// Variables that a generic-mode region names only inside nested constructs
/// that make them `private` (`acc loop gang private(c[lo:n])` over a host
/// pointer `c`) are not the region's variables: their original is never
/// read or written on the device, so they need no attribute (a pointer
/// would otherwise be E0401, an array would be copied for nothing). Found on
/// the text: the block with those constructs blanked must not name them.
pub fn drop_nested_private_uses(
    used: &mut Vec<crate::sema::uses::Use>,
    nested: &[&crate::front::Attached],
    block: Span,
    text: &str,
) {
    used.retain(|u| {
        let spans: Vec<Span> = nested
            .iter()
            .filter(|n| {
                n.directive
                    .clauses_named("private")
                    .any(|c| c.items().iter().any(|i| i.name == u.name))
            })
            .filter_map(|n| n.stmt.map(|s| Span::new(n.directive.span.start, s.end)))
            .filter(|s| block.start <= s.start && s.end <= block.end)
            .collect();
        if spans.is_empty() {
            return true;
        }
        let mut rest: Vec<u8> = text.as_bytes()[block.start..block.end].to_vec();
        for s in &spans {
            for b in &mut rest[s.start - block.start..s.end - block.start] {
                *b = b' ';
            }
        }
        crate::source::mask::mentions_word(&String::from_utf8_lossy(&rest), &u.name)
    });
}
