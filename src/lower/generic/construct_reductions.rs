//! Reductions on the compute construct (across teams): which kinds of
//! construct lower them, the construct's own scalar reductions, loops over
//! the teams whose clause is the construct's, loops that update a reduced
//! variable without a clause, `target { teams reduction }`, and gang loops
//! whose reduction becomes the construct's.

use super::construct::Construct;
use super::region_vars::RegionVars;
use super::roles::{role, Role};
use super::syntax::assignments_to;
use super::{not_supported, Ctx};
use crate::diag::Diagnostic;
use crate::directives::Directive;
use crate::front::c::Node;
use crate::front::Attached;
use crate::ir::generic::{GenKind, GenRed, Spread, WsLoop};
use crate::sema::sharing::{self, Attr, RedOp};
use crate::sema::CType;
use crate::source::{SourceFile, Span};

/// Whether `reduction` on this generic-mode construct is lowered over the
/// teams: OpenACC `parallel` / `serial` and OpenMP `target teams` (teams =
/// gang). A `target parallel` reduction is over the threads of its one
/// parallel region (`target_parallel_red`); `target` alone has no
/// reduction clause.
pub(super) fn construct_red_ok(kind: GenKind) -> bool {
    matches!(
        kind,
        GenKind::AccParallel | GenKind::AccSerial | GenKind::OmpTeams
    )
}

/// The scalar reductions of the compute construct, in clause order.
pub(super) fn construct_reductions(vars: &[sharing::VarAttr]) -> Vec<GenRed> {
    vars.iter()
        .filter_map(|v| match v.attr {
            Attr::Reduction { op, arith, .. } => Some(GenRed::of(v, op, arith)),
            _ => None,
        })
        .collect()
}

/// A reduction clause of a loop spread over the teams (`distribute`,
/// `distribute parallel for`, `acc loop gang [vector]`) is lowered when it
/// reduces only variables the compute construct reduces, with the same
/// operator: seed 001's "reductions on parallel", where the inner gang loop
/// gets no second setup and its threads combine into the team's copy. The
/// names, or the item and message to refuse with.
pub(super) fn of_construct(
    c: &crate::directives::Clause,
    team: &[GenRed],
    arrays: &[String],
) -> Result<Vec<String>, (Span, String)> {
    let op = match c.modifiers() {
        [m] => sharing::red_op(&m.text),
        _ => None,
    };
    let mut names = Vec::new();
    // Arrays moved onto the construct (`reduction/array_over_teams.rs`).
    for item in c.items().iter().filter(|i| !arrays.contains(&i.name)) {
        match team.iter().find(|t| t.name == item.name && item.path.is_empty()) {
            Some(t) if Some(t.op) == op => names.push(item.name.clone()),
            Some(t) => {
                return Err((
                    item.span,
                    format!(
                        "a reduction over the teams on `{}` with another operator than the compute construct's `{}` is not supported yet",
                        item.name,
                        t.op.as_str()
                    ),
                ))
            }
            None => {
                return Err((
                    item.span,
                    format!(
                        "a reduction over the teams on `{}`, which the compute construct does not reduce, is not supported yet",
                        item.name
                    ),
                ))
            }
        }
    }
    Ok(names)
}

/// A loop spread over threads that assigns a variable the compute construct
/// reduces, with no reduction or privatizing clause of its own for it: its
/// threads would race on the team's copy, so the loop reduces it with the
/// construct's operator (what seed 001's inner gang loop does for an
/// explicit clause; an update `x = x op e` gives the same value as in order).
pub(super) fn implicit_reductions(
    stmt: Node<'_>,
    text: &str,
    team: &[GenRed],
    explicit: &[GenRed],
    w: &WsLoop,
) -> Vec<GenRed> {
    let mut out = Vec::new();
    for t in team {
        if explicit.iter().any(|e| e.name == t.name)
            || w.privates.iter().any(|p| p.name == t.name)
            || w.nest.iter().any(|l| l.var == t.name)
        {
            continue;
        }
        let mut spans = Vec::new();
        assignments_to(stmt, text, &t.name, &mut spans);
        if let Some(first) = spans.first() {
            let mut r = t.clone();
            r.span = *first;
            out.push(r);
        }
    }
    out
}

/// `target` whose block is a `teams` construct with a reduction: OpenMP
/// makes a scalar firstprivate on `target` unless `target` maps it (the
/// rule that maps it tofrom is for combined constructs only), so the teams'
/// combined value would stay on the device; the merged lowering copies it
/// back, which is right only under `defaultmap(tofrom[: scalar])`. A
/// variable `target` maps explicitly is refused by sharing (in both `map`
/// and `reduction`); the others are refused here.
pub(super) fn nested_teams_reductions(
    file: &SourceFile,
    target: &Directive,
    teams: &Attached,
    reds: &[GenRed],
    diags: &mut Vec<Diagnostic>,
) {
    let tofrom_scalars = target.clauses.iter().any(|c| {
        let t = file.slice(c.span);
        c.name == "defaultmap" && t.contains("tofrom") && (t.contains("scalar") || !t.contains(':'))
    });
    if tofrom_scalars {
        return;
    }
    for r in reds {
        let mapped = target
            .clauses
            .iter()
            .any(|c| c.name == "map" && c.items().iter().any(|i| i.name == r.name));
        if mapped {
            continue;
        }
        diags.push(
            not_supported(
                r.span,
                format!(
                    "a reduction on `teams` nested in `target` over `{}`, which `target` does not map (so it is firstprivate there and the result stays on the device), is not supported yet",
                    r.name
                ),
            )
            .with_secondary(teams.directive.span, "the teams construct")
            .with_help("write the combined `#pragma omp target teams ... reduction(...)`, which maps the variable tofrom"),
        );
    }
}

/// Gang loops of the block (`acc loop gang [vector]`, `distribute parallel
/// for`, `distribute simd`) reducing a scalar the construct maps tofrom,
/// where nothing else in the block names the scalar: seed 001's gang
/// reduction of a copy object. Its RED_FINI would follow each loop; as the
/// block does not read the variable between or after the loops, one
/// RED_FINI at the end of the construct gives the same value, so the
/// variable becomes a reduction on the construct (its attribute changes
/// from mapped to reduction, which maps it tofrom as well). Other gang-loop
/// reductions stay E0901 (a RED_FINI inside the block would need every
/// team to wait for every other).
pub(super) fn promote_gang_loop_reductions(
    kind: GenKind,
    block: Span,
    nested: &[&Attached],
    vars: &mut [sharing::VarAttr],
    text: &str,
    syms: &crate::sema::symbols::Scope,
) -> Vec<GenRed> {
    // Loops directly in the block (not inside another nested construct).
    let top = |n: &Attached| {
        !nested.iter().any(|o| {
            o.directive.span != n.directive.span
                && o.stmt.is_some_and(|s| n.directive.span.within(s))
        })
    };
    // name -> (operator, clause item, spans of the loops that reduce it)
    let mut cands: Vec<(
        String,
        Option<RedOp>,
        crate::directives::ListItem,
        Vec<Span>,
    )> = Vec::new();
    for n in nested.iter().filter(|n| top(n)) {
        let r = role(&n.directive, kind, false, false);
        if !matches!(r, Role::MasterLoop | Role::Fork(Spread::Grid)) {
            continue;
        }
        let Some(stmt) = n.stmt else { continue };
        let whole = Span::new(n.directive.span.start, stmt.end);
        for c in n.directive.clauses.iter().filter(|c| c.name == "reduction") {
            let op = match c.modifiers() {
                [m] => sharing::red_op(&m.text),
                _ => None,
            };
            for item in c.items().iter().filter(|i| i.path.is_empty()) {
                match cands.iter_mut().find(|x| x.0 == item.name) {
                    Some(x) => {
                        if x.1 != op {
                            x.1 = None;
                        }
                        x.3.push(whole);
                    }
                    None => cands.push((item.name.clone(), op, item.clone(), vec![whole])),
                }
            }
        }
    }
    let body = text.get(block.start..block.end).unwrap_or("");
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    for (name, op, item, loops) in cands {
        let Some(op) = op else { continue };
        let Some(v) = vars.iter_mut().find(|v| v.sym.name == name) else {
            continue;
        };
        if !matches!(
            v.attr,
            Attr::Mapped {
                kind: sharing::MapKind::ToFrom,
                ..
            }
        ) || !v.sym.ty.is_scalar()
        {
            continue;
        }
        let b = body.as_bytes();
        let elsewhere = body.match_indices(name.as_str()).any(|(i, _)| {
            let word = (i == 0 || !ident(b[i - 1]))
                && (i + name.len() >= b.len() || !ident(b[i + name.len()]));
            let at = block.start + i;
            word && !loops.iter().any(|l| at >= l.start && at < l.end)
        });
        if elsewhere {
            continue;
        }
        let Some(sym) = syms.get(&name) else { continue };
        let Ok((arith, false)) = sharing::reduction_type(&item, sym, op, syms) else {
            continue;
        };
        v.attr = Attr::Reduction {
            op,
            arith,
            map: sharing::MapKind::ToFrom,
        };
        out.push(GenRed {
            name: name.clone(),
            ty: CType {
                base: v.sym.ty.unqualified_base(),
                derivs: vec![],
            },
            arith,
            op,
            span: item.span,
        });
    }
    out
}

/// The reductions of the compute construct, as the later phases see them.
pub(super) struct ConstructReds {
    /// `target parallel`'s clause: the reductions of its one fork.
    pub parallel: Vec<GenRed>,
    /// Scalar reductions across teams: the construct's own, then the gang
    /// loops' promoted to it.
    pub team: Vec<GenRed>,
    /// The names of the promoted gang-loop reductions (`Generic::loop_gang_reds`).
    pub loop_gang_names: Vec<String>,
    /// Arrays whose reductions on loops over the teams go on the construct
    /// (`reduction/array_over_teams.rs`).
    pub team_arrays: Vec<String>,
}

/// Phase 3: the reductions of the compute construct, gathered before the
/// nested constructs are lowered because a nested clause is lowered only
/// when it is the construct's own (seed 001: no second gang-level setup).
pub(super) fn gather(cx: &mut Ctx<'_>, rc: &Construct<'_>, rv: &mut RegionVars) -> ConstructReds {
    let (d, kind, block, text) = (rc.d, rc.kind, rc.block, rc.text);
    let nested = &rc.nested;
    let vars = &mut rv.vars;
    // `target parallel`: the clause is its one fork's (fork 1, below).
    let parallel_reds = if kind == GenKind::OmpParallel {
        let (s, a) = crate::lower::target_parallel_red::to_fork(d, vars, cx.diags);
        cx.array_reds.extend(a);
        s
    } else {
        vec![]
    };
    let mut team_reds = construct_reductions(vars);
    if let Some(t) = rc.teams {
        nested_teams_reductions(cx.file, &rc.at.directive, t, &team_reds, cx.diags);
    }
    let loop_gang_reds = if construct_red_ok(kind) {
        promote_gang_loop_reductions(kind, block, nested, vars, text, &rv.symbols_at_region)
    } else {
        vec![]
    };
    let loop_gang_names: Vec<String> = loop_gang_reds.iter().map(|r| r.name.clone()).collect();
    team_reds.extend(loop_gang_reds);
    // Array reductions of loops over the teams go on the compute construct
    // (`reduction/array_over_teams.rs`).
    let team_arrays = if construct_red_ok(kind) {
        crate::lower::reduction::array_over_teams::promote(
            block,
            nested,
            |d| {
                matches!(
                    role(d, kind, false, false),
                    Role::MasterLoop | Role::Fork(Spread::Grid)
                )
            },
            vars,
            text,
            &rv.symbols_at_region,
            &rv.locals,
            &rv.written,
        )
    } else {
        vec![]
    };
    ConstructReds {
        parallel: parallel_reds,
        team: team_reds,
        loop_gang_names,
        team_arrays,
    }
}
