//! The sharing report's view of a fork: every variable it references, its
//! attribute, where it lives on the GPU and the rule that decided it.

use super::syntax::{declared_in, node_at};
use crate::directives::Model;
use crate::front::CTree;
use crate::ir::generic::{Fork, GenKind, PrivVar, RuleKind, ScopeVar, Staged, VarHome, WsLoop};
use crate::sema::sharing::{self, Attr};
use crate::sema::{symbols, uses};

/// The variables a fork references and how each is shared.
#[allow(clippy::too_many_arguments)]
pub(super) fn fork_scope(
    tree: &CTree,
    text: &str,
    model: Model,
    kind: GenKind,
    f: &Fork,
    inner_loops: &[(u32, WsLoop)],
    staged: &[Staged],
    vars: &[sharing::VarAttr],
) -> Vec<ScopeVar> {
    let mut out = Scope(Vec::new());
    let (Some(root), Some(fnode)) = (tree.root(), node_at(tree, f.stmt)) else {
        return out.0;
    };
    let (fused, _) = uses::free_identifiers(fnode, text);
    let fsyms = symbols::visible_at(root, text, fnode);
    let loops: Vec<&WsLoop> =
        f.ws.iter()
            .chain(
                inner_loops
                    .iter()
                    .filter(|(id, _)| *id == f.id)
                    .map(|(_, w)| w),
            )
            .collect();
    explicit_vars(&mut out, f, &loops);
    let shared_rule = match model {
        Model::Omp => "parallel construct without default clause: shared",
        Model::Acc => "declared outside the partitioned loop: one copy per gang, visible to its workers and vector lanes",
    };
    for u in &fused {
        let Some(sym) = fsyms.get(&u.name) else {
            continue;
        };
        if sym.is_typedef || sym.ty.is_function() {
            continue;
        }
        if let Some(v) = used_var(u, sym, f, kind, staged, vars, shared_rule) {
            out.push(v);
        }
    }
    // Variables declared inside the construct.
    let mut declared = Vec::new();
    declared_in(fnode, text, &mut declared);
    for s in declared {
        out.push(ScopeVar {
            name: s.name.clone(),
            ty: s.ty.clone(),
            attribute: "private".into(),
            home: VarHome::Register("each thread's copy"),
            rule: "declared inside the construct (predetermined private)",
            kind: RuleKind::Predetermined,
            span: s.span,
            decl: Some(s.span),
        });
    }
    out.0
}

/// A fork's variables, each once (the first row for a name wins).
struct Scope(Vec<ScopeVar>);

impl Scope {
    fn push(&mut self, v: ScopeVar) {
        if !self.0.iter().any(|o| o.name == v.name) {
            self.0.push(v);
        }
    }
}

/// The fork's and its loops' reduction and private items, and the loops'
/// iteration variables.
fn explicit_vars(out: &mut Scope, f: &Fork, loops: &[&WsLoop]) {
    let privs: Vec<&PrivVar> = f
        .privates
        .iter()
        .chain(loops.iter().flat_map(|w| w.privates.iter()))
        .collect();
    for r in f
        .reductions
        .iter()
        .chain(loops.iter().flat_map(|w| w.reductions.iter()))
    {
        out.push(ScopeVar {
            name: r.name.clone(),
            ty: r.ty.clone(),
            attribute: format!("reduction({})", r.op.as_str()),
            home: VarHome::Register(
                "each thread's copy; the team's combined value goes into the shared variable",
            ),
            rule: "explicit clause",
            kind: RuleKind::Explicit,
            span: r.span,
            decl: None,
        });
    }
    for p in &privs {
        out.push(ScopeVar {
            name: p.name.clone(),
            ty: p.ty.clone(),
            attribute: p.kind.as_str().to_string(),
            home: VarHome::Register("each thread's copy"),
            rule: "explicit clause",
            kind: RuleKind::Explicit,
            span: p.span,
            decl: None,
        });
    }
    for w in loops {
        for (l, ty) in w.nest.iter().zip(&w.types) {
            out.push(ScopeVar {
                name: l.var.clone(),
                ty: ty.clone(),
                attribute: "private".into(),
                home: VarHome::Register("each thread's copy"),
                rule: "loop iteration variable (predetermined private)",
                kind: RuleKind::Predetermined,
                span: l.var_span,
                decl: None,
            });
        }
    }
}

/// A variable the fork uses that no clause of it names: a staged loop
/// variable of the teams loop, a staged variable of the sequential part, or
/// a variable of the region.
fn used_var(
    u: &uses::Use,
    sym: &crate::sema::Symbol,
    f: &Fork,
    kind: GenKind,
    staged: &[Staged],
    vars: &[sharing::VarAttr],
    shared_rule: &'static str,
) -> Option<ScopeVar> {
    let loop_var_rule = "iteration variable of the enclosing loop over the teams (predetermined private to the team running the iteration): the team's copy, read by its threads";
    if let Some(si) = staged
        .iter()
        .position(|s| s.loop_var && s.name == u.name && s.forks.contains(&f.id))
    {
        return Some(ScopeVar {
            name: u.name.clone(),
            ty: staged[si].ty.clone(),
            attribute: "shared".into(),
            home: VarHome::Staged(si),
            rule: loop_var_rule,
            kind: RuleKind::Predetermined,
            span: u.span,
            decl: None,
        });
    }
    if let Some(si) = staged
        .iter()
        .position(|s| !s.region_var && !s.loop_var && s.span == sym.span)
    {
        return Some(ScopeVar {
            name: u.name.clone(),
            ty: sym.ty.clone(),
            attribute: "shared".into(),
            home: VarHome::Staged(si),
            rule: shared_rule,
            kind: RuleKind::Implicit,
            span: u.span,
            decl: Some(sym.span),
        });
    }
    let v = vars.iter().find(|v| v.sym.name == u.name)?;
    let si = staged
        .iter()
        .position(|s| s.region_var && s.name == v.sym.name);
    let (attribute, home, rule, rk) = region_var_row(v, si, kind, shared_rule);
    Some(ScopeVar {
        name: u.name.clone(),
        ty: v.sym.ty.clone(),
        attribute,
        home,
        rule,
        kind: rk,
        span: u.span,
        decl: None,
    })
}

/// A region variable as the fork sees it: (attribute, home, rule, kind);
/// `si` its staged slot.
fn region_var_row(
    v: &sharing::VarAttr,
    si: Option<usize>,
    kind: GenKind,
    shared_rule: &'static str,
) -> (String, VarHome, &'static str, RuleKind) {
    match (&v.attr, si, kind) {
        (Attr::Mapped { .. }, _, _) => (
            "shared".to_string(),
            VarHome::Device,
            shared_rule,
            RuleKind::Implicit,
        ),
        (_, Some(si), _) => (
            "shared".to_string(),
            VarHome::Staged(si),
            shared_rule,
            RuleKind::Implicit,
        ),
        (Attr::ArrayPrivate { first, .. }, None, k) => {
            crate::lower::privarray::scope_row(*first, k, v.rule, shared_rule)
        }
        // An array reduction moved onto the construct (`reduction/array_over_teams.rs`).
        (Attr::ArrayReduction { .. }, None, _) => (
            "shared".to_string(),
            VarHome::Copies("the team's copy of the compute construct's reduction, a slice of a per-launch area"),
            shared_rule,
            RuleKind::Implicit,
        ),
        (Attr::Firstprivate, None, GenKind::OmpParallel) => (
            "firstprivate".to_string(),
            VarHome::Register("kernel parameter: each thread's copy"),
            v.rule,
            RuleKind::Implicit,
        ),
        (Attr::Private, None, GenKind::OmpParallel) => (
            "private".to_string(),
            VarHome::Register("each thread's copy"),
            v.rule,
            RuleKind::Explicit,
        ),
        _ => (
            "shared".to_string(),
            VarHome::Register(
                "kernel parameter: the region never writes it, so every thread holds its value",
            ),
            shared_rule,
            RuleKind::Implicit,
        ),
    }
}
