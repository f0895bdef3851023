//! The clauses and nested constructs of an orphaned parallel region
//! (`lower::orphan`) that its team honours: `private`, `firstprivate`,
//! `lastprivate`, scalar `reduction` (every operator of the main path),
//! `schedule`, `collapse`, and inside a `parallel` block the simple nested
//! constructs `for` (same clauses, plus `nowait`), `simd` without data
//! clauses and `barrier`.
//!
//! Why a module of its own: the orphaned region runs in a `__device__`
//! function outlined from the user's function, not in a kernel of a
//! region, so it cannot reuse generic mode's per-region IR (`lower::
//! generic`); it does reuse its vocabulary (`GenRed`, the reduction
//! operators and types of `sema::sharing`) so that the emitter spells the
//! private copies and the team combine with the same code (`emit::
//! reduction`'s data struct, `p2c_team_red_warps` / `p2c_team_red_value`).
//! Everything here answers `Err(why)` rather than guessing: the caller then
//! runs the construct with the calling thread only (W0004), which is always
//! correct.

use crate::directives::{Clause, Directive};
use crate::front::c::Node;
use crate::ir::generic::GenRed;
use crate::ir::orphan::{Chunk, OLoop, OPriv};
use crate::sema::loops::{self, CanonLoop};
use crate::sema::{sharing, CType};
use crate::source::mask::mentions_word as word_in;
use crate::source::Span;

/// The first clause of `d` not in `allowed` (`default(shared|none)` is
/// always allowed).
pub fn unsupported_clause<'d>(d: &'d Directive, allowed: &[&str]) -> Option<&'d Clause> {
    d.clauses.iter().find(|c| {
        let default_ok =
            c.name == "default" && matches!(c.keyword(), Some("shared") | Some("none"));
        !(allowed.contains(&c.name.as_str()) || default_ok)
    })
}

/// private / firstprivate / lastprivate items: scalars and fixed-size
/// arrays (lastprivate: scalars) declared where the construct is.
pub fn privates(d: &Directive, syms: &crate::sema::symbols::Scope) -> Result<Vec<OPriv>, String> {
    let mut out: Vec<OPriv> = Vec::new();
    for c in &d.clauses {
        let (first, last) = match c.name.as_str() {
            "private" => (false, false),
            "firstprivate" => (true, false),
            "lastprivate" => {
                if !c.modifiers().is_empty() {
                    return Err("its `lastprivate` modifier is not lowered for a team yet".into());
                }
                (false, true)
            }
            _ => continue,
        };
        for item in c.items() {
            if !item.path.is_empty() || !item.sections.is_empty() {
                return Err(format!(
                    "its `{}` clause names a member or a section",
                    c.name
                ));
            }
            let Some(sym) = syms
                .get(&item.name)
                .filter(|s| !s.is_typedef && !s.ty.is_function())
            else {
                return Err(format!("`{}` has no visible declaration", item.name));
            };
            let array = sym.ty.is_array();
            if !(sym.ty.is_scalar() || array && !last) {
                return Err(format!(
                    "`{}` in its `{}` clause is not a scalar",
                    item.name, c.name
                ));
            }
            let ty = value_type(&sym.ty);
            match out.iter_mut().find(|p| p.name == item.name) {
                Some(p) if first || last => {
                    p.first |= first;
                    p.last |= last;
                }
                Some(_) => {}
                None => out.push(OPriv {
                    name: item.name.clone(),
                    ty,
                    first,
                    last,
                }),
            }
        }
    }
    Ok(out)
}

/// Scalar `reduction` items with the operators and types of the main path.
pub fn reductions(
    d: &Directive,
    syms: &crate::sema::symbols::Scope,
) -> Result<Vec<GenRed>, String> {
    let mut out: Vec<GenRed> = Vec::new();
    for c in d.clauses.iter().filter(|c| c.name == "reduction") {
        let op = match c.modifiers() {
            [m] => sharing::red_op(&m.text),
            _ => None,
        };
        let Some(op) = op else {
            return Err("its reduction operator or modifier is not lowered for a team yet".into());
        };
        for item in c.items() {
            if !item.path.is_empty() || !item.sections.is_empty() {
                return Err("it reduces a member or an array section".into());
            }
            let Some(sym) = syms
                .get(&item.name)
                .filter(|s| !s.is_typedef && !s.ty.is_function())
            else {
                return Err(format!("`{}` has no visible declaration", item.name));
            };
            let arith = match sharing::reduction_type(item, sym, op, syms) {
                Ok((a, false)) => a,
                _ => {
                    return Err(format!(
                        "its reduction over `{}` is not over a scalar of a supported type",
                        item.name
                    ))
                }
            };
            if out.iter().any(|r| r.name == item.name) {
                return Err(format!("`{}` is in two reduction clauses", item.name));
            }
            out.push(GenRed {
                name: item.name.clone(),
                ty: CType {
                    base: sym.ty.unqualified_base(),
                    derivs: vec![],
                },
                arith,
                op,
                span: item.span,
            });
        }
    }
    Ok(out)
}

/// The `schedule` clause.
pub fn chunk(d: &Directive) -> Result<Chunk, String> {
    let Some(c) = d.clause("schedule") else {
        return Ok(Chunk::Cyclic);
    };
    // Modifiers (`monotonic`, `nonmonotonic`, `simd`) come first.
    let args: Vec<&str> = c
        .positional_args()
        .map(|e| e.text.trim())
        .filter(|t| !matches!(*t, "monotonic" | "nonmonotonic" | "simd"))
        .collect();
    match (args.first().copied(), args.get(1)) {
        (Some("static"), None) => Ok(Chunk::Block),
        (Some("static" | "dynamic" | "guided"), Some(s)) => Ok(Chunk::Size(s.to_string())),
        (Some("dynamic" | "guided" | "auto" | "runtime"), None) => Ok(Chunk::Size("1".into())),
        (k, _) => Err(format!(
            "its schedule `{}` is not lowered for a team yet",
            k.unwrap_or("")
        )),
    }
}

/// The loop nest of a worksharing loop (`collapse(n)`), rectangular, with
/// the types of its variables.
pub fn nest(
    d: &Directive,
    stmt: Node<'_>,
    text: &str,
    syms: &crate::sema::symbols::Scope,
) -> Result<Vec<(CanonLoop, CType)>, String> {
    if d.clause("collapse")
        .is_some_and(|c| c.expr_modifier().is_some_and(|m| m.text == "force"))
    {
        return Err("its collapse has the `force` modifier".into());
    }
    let depth = match d.clause("collapse").and_then(|c| c.expr()) {
        None => 1,
        Some(e) => match loops::int_literal(&e.text) {
            Some(v) if (1..=8).contains(&v) => v as usize,
            _ => return Err("its collapse is not a constant from 1 to 8".into()),
        },
    };
    let ls = loops::nest(stmt, text, depth, "collapse", d.span, "")
        .map_err(|_| "its loop nest is not in canonical form".to_string())?;
    for (i, inner) in ls.iter().enumerate() {
        for outer in &ls[..i] {
            if [&inner.lb, &inner.ub, &inner.step]
                .iter()
                .any(|e| word_in(e, &outer.var))
            {
                return Err("its collapsed loop nest is not rectangular".into());
            }
        }
    }
    let mut out = Vec::new();
    for l in ls {
        let ty = match &l.declared_type {
            Some(t) => t.clone(),
            None => match syms.get(&l.var) {
                Some(s) if s.ty.is_scalar() => s.ty.clone(),
                _ => return Err("its loop variable has no visible declaration".into()),
            },
        };
        let ty = CType {
            base: ty.unqualified_base(),
            derivs: vec![],
        };
        out.push((l, ty));
    }
    Ok(out)
}

/// The type of a copy of a variable of type `ty`: top-level qualifiers
/// dropped (a pointer keeps its pointee's, `const int *` stays).
pub fn value_type(ty: &CType) -> CType {
    match ty.derivs.first() {
        Some(crate::sema::Deriv::Pointer { .. }) => {
            let mut derivs = ty.derivs.clone();
            derivs[0] = crate::sema::Deriv::Pointer { quals: vec![] };
            CType {
                base: ty.base.clone(),
                derivs,
            }
        }
        _ => CType {
            base: ty.unqualified_base(),
            derivs: ty.derivs.clone(),
        },
    }
}

/// The clauses a worksharing `for` (alone or in `parallel for`) may carry.
pub const LOOP_CLAUSES: &[&str] = &[
    "private",
    "firstprivate",
    "lastprivate",
    "reduction",
    "schedule",
    "collapse",
    "nowait",
];

/// The clauses of `parallel` the team honours.
pub const PARALLEL_CLAUSES: &[&str] = &[
    "num_threads",
    "if",
    "shared",
    "proc_bind",
    "private",
    "firstprivate",
    "reduction",
];

/// A worksharing loop of the team (`parallel for`'s, or a nested `for`).
pub fn ws_loop(
    d: &Directive,
    construct: String,
    stmt: Node<'_>,
    text: &str,
    syms: &crate::sema::symbols::Scope,
) -> Result<OLoop, String> {
    let nest = nest(d, stmt, text, syms)?;
    let mut privs = privates(d, syms)?;
    let reds = reductions(d, syms)?;
    // The loop variables are private already (predetermined), and
    // lastprivate of one is its value after the whole nest.
    for p in &privs {
        if p.last && nest.iter().any(|(l, _)| l.var == p.name) && p.first {
            return Err(format!("`{}` is a loop variable in firstprivate", p.name));
        }
    }
    privs.retain(|p| p.last || !nest.iter().any(|(l, _)| l.var == p.name));
    if let Some(r) = reds.iter().find(|r| privs.iter().any(|p| p.name == r.name)) {
        return Err(format!("`{}` is both private and a reduction", r.name));
    }
    Ok(OLoop {
        pragma: d.span,
        stmt: Span::new(stmt.start_byte(), stmt.end_byte()),
        construct,
        nest,
        privs,
        reds,
        chunk: chunk(d)?,
        nowait: d.clause("nowait").is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert!(word_in("i + 1", "i"));
        assert!(!word_in("ii + 1", "i"));
        assert!(word_in("n-i", "i"));
    }
}
