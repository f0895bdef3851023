//! Array and array-section reductions over the threads of one team in a
//! generic-mode region (`acc loop worker reduction(+: avgs)` inside a gang
//! loop, `omp parallel for reduction(max: a[0:n])` inside `omp target`).
//!
//! Why a scheme of their own: the scalar team reductions pack the private
//! copies into one value and run warp trees over it; an array section has
//! a length known only at run time and may be large, so it cannot travel
//! through shuffles or a 32-slot shared array. Instead, as for the SPMD
//! array reductions (`p2c_red_array`), every thread of the team gets its own
//! copy of the section in global memory, filled with init_val(OP), and the
//! variable's name is bound to it, so the loop body is copied unchanged.
//! The copies are the block's slice of a per-launch area that the host
//! sizes and allocates (`array_team_area`: blocks x threads x len elements;
//! the bounds must be values the host can evaluate at the launch). After the construct
//! the team's threads meet at a barrier and combine the copies element by
//! element, in thread order, into the original section (elements spread
//! over the threads), so no atomics touch the data and the result does not
//! depend on scheduling. Where the construct ends its parallel region
//! (`red_at_join`, or the reduction is on the fork itself) the barriers are
//! named barrier 4 over the whole block, so any team size works; elsewhere
//! they are team barriers, which limit the team to one warp or whole warps
//! like any team barrier.
//!
//! The original variable must be shared by the team: a variable of the
//! team's frame (staged), a mapped array of a region of one team (several
//! teams would combine into the same device copy without synchronisation),
//! or the team's copy of an array reduction moved onto the compute
//! construct (`array_over_teams`: a loop over all teams' threads, or a
//! loop over one team inside a loop over the teams).

use super::array_bounds::bounds;
use crate::diag::Diagnostic;
use crate::directives::ast::ListItem;
use crate::ir::reduction::TeamArrayRed;
use crate::sema::arith::Arith;
use crate::sema::sharing::RedOp;
use crate::sema::symbols::Symbol;
use crate::sema::CType;
use crate::source::Span;

impl TeamArrayRed {
    /// One item of a nested construct's reduction clause.
    pub fn from_item(
        construct: Span,
        item: &ListItem,
        sym: &Symbol,
        op: RedOp,
        arith: Arith,
    ) -> Result<TeamArrayRed, Box<Diagnostic>> {
        let b = bounds(&item.name, &sym.ty, &item.sections, item.span)?;
        Ok(TeamArrayRed {
            construct,
            var: item.name.clone(),
            ty: sym.ty.clone(),
            elem: CType {
                base: sym.ty.unqualified_base(),
                derivs: vec![],
            },
            arith,
            op,
            bounds: b,
            span: item.span,
        })
    }

    /// The names of the section's bounds expressions (they must reach the
    /// code of the construct).
    pub fn bound_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for e in [&self.bounds.lo, &self.bounds.len] {
            for w in e.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                if w.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && !out.iter().any(|x: &String| x == w)
                {
                    out.push(w.to_string());
                }
            }
        }
        out
    }
}

/// `reduction(op: a, b[lo:len])` of the array items of one construct, for
/// plans and `--emit=reductions`.
pub fn list(reds: &[&TeamArrayRed]) -> String {
    let mut out = String::new();
    for (i, r) in reds.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&format!("reduction({}: {})", r.op.as_str(), r.bounds.text));
    }
    out
}

/// The line `--emit=reductions` prints for one construct's array
/// reductions over a team.
pub fn form_line(line: usize, reds: &[&TeamArrayRed], at_join: bool) -> String {
    format!(
        "  team:       line {line}: {}: one RID per item covering its section; LOCAL = each thread's private copy of the section (a slice of the per-launch area the host sizes: blocks x threads x len elements), every element init_val(OP); after the construct, {}, each element of RESULT (the section of the team's variable) combines the threads' copies in thread order (elements spread over the threads), then a barrier before the copies are reused",
        list(reds),
        if at_join {
            "after named barrier 4 over the block"
        } else {
            "after a team barrier"
        }
    )
}

fn not_supported(at: Span, msg: String) -> Diagnostic {
    Diagnostic::new(crate::diag::codes::NOT_SUPPORTED, at, msg).with_label("not lowered yet")
}

/// A loop one thread runs in order (`acc loop seq`, `simd` in the
/// sequential part): its array reductions are the loop's own updates. In
/// the sequential part that is the clause's meaning; inside a parallel
/// region every thread would run the loop on the shared array.
pub fn in_order(
    reds: &mut Vec<TeamArrayRed>,
    pragma: Span,
    in_fork: bool,
    diags: &mut Vec<Diagnostic>,
) {
    reds.retain(|r| {
        if r.construct != pragma {
            return true;
        }
        if in_fork {
            diags.push(not_supported(
                r.span,
                format!(
                    "an array reduction on a loop that each thread of a parallel region runs in order (`{}`) is not supported yet",
                    r.bounds.text
                ),
            ));
        }
        false
    });
}

/// Whether `pragma` is fork `f`'s own construct or a worksharing loop in it.
fn belongs(
    pragma: Span,
    f: &crate::ir::generic::Fork,
    inner: &[(u32, crate::ir::generic::WsLoop)],
) -> bool {
    pragma == f.pragma
        || inner
            .iter()
            .any(|(id, w)| *id == f.id && w.pragma == pragma)
}

/// The fork's array reductions use their variables (shared by the team,
/// so staged when they are variables of the sequential part) and the names
/// of their bounds.
pub fn fork_uses(
    reds: &[TeamArrayRed],
    f: &crate::ir::generic::Fork,
    inner: &[(u32, crate::ir::generic::WsLoop)],
    used: &mut Vec<crate::sema::uses::Use>,
) {
    for r in reds.iter().filter(|r| belongs(r.construct, f, inner)) {
        let names = std::iter::once((r.var.clone(), true))
            .chain(r.bound_names().into_iter().map(|n| (n, false)));
        for (name, written) in names {
            if !used.iter().any(|u| u.name == name) {
                used.push(crate::sema::uses::Use {
                    name,
                    span: r.span,
                    written,
                    assigned: written,
                });
            }
        }
    }
}

/// Keeps the array reductions generic mode lowers: on a fork whose threads
/// are one team or a worksharing loop inside one, into a variable the team
/// shares (staged, or a mapped array of a region of one team); the others
/// are located E0901. `over_teams`: arrays moved onto the compute
/// construct (`array_over_teams`).
#[allow(clippy::too_many_arguments)]
pub fn check(
    reds: Vec<TeamArrayRed>,
    forks: &[crate::ir::generic::Fork],
    inner: &[(u32, crate::ir::generic::WsLoop)],
    staged: &[crate::ir::generic::Staged],
    vars: &[crate::sema::sharing::VarAttr],
    one_team: bool,
    over_teams: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<TeamArrayRed> {
    use crate::ir::generic::Spread;
    use crate::sema::sharing::Attr;
    let mut out = Vec::new();
    for r in reds {
        let fork = forks.iter().find(|f| belongs(r.construct, f, inner));
        // Moved onto the compute construct (`array_over_teams`): a loop over
        // the teams' masters updates the team's copy itself; one over all
        // teams' threads reduces over each team into it.
        if over_teams.contains(&r.var) {
            match fork {
                Some(f) if r.construct == f.pragma => out.push(r),
                Some(_) => diags.push(not_supported(
                    r.span,
                    format!(
                        "an array reduction (`{}`) in a parallel region over a variable reduced over the teams is not supported yet",
                        r.bounds.text
                    ),
                )),
                None => {}
            }
            continue;
        }
        let Some(f) = fork else {
            diags.push(not_supported(
                r.span,
                format!(
                    "an array reduction (`{}`) on a loop spread over the teams is not supported yet",
                    r.bounds.text
                ),
            ));
            continue;
        };
        if r.construct == f.pragma && f.ws.as_ref().is_some_and(|w| w.spread != Spread::Team) {
            diags.push(not_supported(
                r.span,
                format!(
                    "an array reduction (`{}`) on a loop spread over the threads of all teams is not supported yet",
                    r.bounds.text
                ),
            ));
            continue;
        }
        let in_frame = f.staged.iter().any(|&si| staged[si].name == r.var);
        let mapped = vars.iter().any(|v| {
            v.sym.name == r.var && matches!(v.attr, Attr::Mapped { .. }) && !v.sym.ty.is_scalar()
        });
        if mapped && !one_team {
            diags.push(
                not_supported(
                    r.span,
                    format!(
                        "an array reduction into the mapped array `{}` from a region of several teams is not supported yet",
                        r.var
                    ),
                )
                .with_note("every team would combine its result into the same device copy")
                .with_help("reduce into an array private to each gang or team (`private` on the compute construct or declared in the region)"),
            );
            continue;
        }
        if !in_frame && !mapped {
            diags.push(
                not_supported(
                    r.span,
                    format!(
                        "an array reduction over `{}`, which the threads of the parallel region do not share, is not supported yet",
                        r.var
                    ),
                )
                .with_note("lowered: arrays of the sequential part or private to each team, mapped arrays of a region of one team"),
            );
            continue;
        }
        out.push(r);
    }
    out
}

/// `--emit=reductions` of a generic-mode region's array reductions over a
/// team, in seed 001's form: per construct a loop id (`lid` from 1, after
/// the NULL outermost loop 0), per item a reduction id, the builtins around
/// the construct at its level (WORKER: `omp parallel [for]` / `for` threads,
/// `acc loop worker`; VECTOR: `acc loop vector` alone), RESULT = the team's
/// variable (private to the team: RES_PTR is its address in the team's
/// frame or its device copy), LOCAL = each thread's copy of the section.
pub fn render(
    file: &crate::source::SourceFile,
    g: &crate::ir::generic::Generic,
    o: &mut String,
) -> bool {
    use std::fmt::Write;
    let mut pragmas: Vec<Span> = g.team_array_reds.iter().map(|r| r.construct).collect();
    pragmas.sort();
    pragmas.dedup();
    for (i, p) in pragmas.iter().enumerate() {
        let lid = i + 1;
        let reds: Vec<&TeamArrayRed> = g
            .team_array_reds
            .iter()
            .filter(|r| r.construct == *p)
            .collect();
        let text = crate::source::pragma_text::pragma_one_line(file.slice(*p));
        let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric()).collect();
        let level =
            if words.contains(&"acc") && words.contains(&"vector") && !words.contains(&"worker") {
                "VECTOR"
            } else {
                "WORKER"
            };
        let at_join = g.forks.iter().any(|f| f.pragma == *p)
            || g.inner_loops
                .iter()
                .any(|(_, w)| w.pragma == *p && w.red_at_join);
        let _ = writeln!(o, "{}", form_line(file.line_of(p.start), &reds, at_join));
        for (rid, r) in reds.iter().enumerate() {
            let b = &r.bounds;
            let _ = writeln!(
                o,
                "  reduction:  line {} lid {lid} rid {rid} {} {} : {} elements of {} ({}), lo = {}, len = {}",
                file.line_of(p.start),
                r.op.as_str(),
                b.text,
                b.len,
                r.elem.type_name(),
                r.arith.describe(),
                b.lo,
                b.len
            );
            let args = format!(
                "&{}[{}], LOCAL[0:{}], {level}, {}, {lid}, {rid}",
                r.var,
                b.lo,
                b.len,
                r.op.as_str()
            );
            let _ = writeln!(
                o,
                "  // {}: RESULT = the team's {} (shared by the team); LOCAL = each thread's copy",
                r.var, r.var
            );
            let _ = writeln!(o, "  {} = RED_SETUP ({args})", r.var);
            let _ = writeln!(o, "  {} = RED_INIT ({args})", r.var);
            let _ = writeln!(o, "  `{}` {{ ... }}", text.trim_start_matches("#pragma "));
            let _ = writeln!(o, "  RED_LOCK ({level}, {lid})");
            let _ = writeln!(o, "  {} = RED_FINI ({args})", r.var);
            let _ = writeln!(o, "  RED_UNLOCK ({level}, {lid})");
            let _ = writeln!(o, "  {} = RED_TEARDOWN ({args})", r.var);
        }
        let _ = writeln!(
            o,
            "  expansion:\n    RED_SETUP ({level}, {lid})      the team's copies: the block's slice of the per-launch area (the host allocated blocks x threads x len elements)\n    RED_INIT ({level}, {lid})       every thread of the team: its copy at init_val(OP); the variable's name bound to it (copy - lo)\n    RED_LOCK ({level}, {lid})       no lock: each element is combined by one thread\n    RED_FINI ({level}, {lid})       barrier; RESULT[k] = OP(RESULT[k], copy_0[k], copy_1[k], ...) in thread order, elements spread over the threads\n    RED_UNLOCK ({level}, {lid})     no lock\n    RED_TEARDOWN ({level}, {lid})   barrier: the next run of the construct may refill the copies"
        );
    }
    !pragmas.is_empty()
}

/// Array reductions on a generic-mode compute construct (`acc parallel
/// reduction(+: h)` with a block; seed 001's NULL outermost gang loop): as
/// on SPMD constructs (`Region::array_reductions`, `p2c_red_array`), every
/// thread of every block has a copy at the identity; the name is bound to
/// thread 0's copy, the team's, which the sequential part and the loops
/// over the teams update; at the end of the kernel every block combines its
/// copies and the last block folds them into the mapped section. A
/// parallel region using the variable would race on the team's copy (it is
/// refused: [`construct_array_in_fork`]). Rids follow the scalar ones.
pub fn construct_arrays(
    vars: &[crate::sema::sharing::VarAttr],
    scalar_reds: usize,
    diags: &mut Vec<Diagnostic>,
) -> Vec<crate::ir::ArrayReduction> {
    let mut out = Vec::new();
    for v in vars {
        let crate::sema::sharing::Attr::ArrayReduction {
            op,
            arith,
            sections,
        } = &v.attr
        else {
            continue;
        };
        match bounds(&v.sym.name, &v.sym.ty, sections, v.span) {
            Ok(b) => out.push(crate::ir::ArrayReduction {
                var: v.sym.name.clone(),
                ty: v.sym.ty.clone(),
                arith: *arith,
                op: *op,
                lo: b.lo,
                len: b.len,
                text: b.text,
                rid: (scalar_reds + out.len()) as u32,
                span: v.span,
            }),
            Err(e) => diags.push(*e),
        }
    }
    out
}

/// The located error for an array the compute construct reduces that a
/// parallel region of the block uses.
pub fn construct_array_in_fork(at: Span, name: &str) -> Diagnostic {
    not_supported(
        at,
        format!(
            "`{name}`, reduced by the compute construct, used in a parallel region is not supported yet"
        ),
    )
    .with_note("lowered: array reductions on the compute construct updated by its sequential part and loops over the teams (acc loop gang, distribute)")
}
