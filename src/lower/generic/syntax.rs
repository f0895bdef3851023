//! Queries of the C syntax tree that generic mode asks: nodes at spans,
//! assignments, writes and address-taking, runtime calls, declarations and
//! their scopes. They read the tree and the text; they decide nothing.

use crate::front::c::Node;
use crate::front::{Attached, CTree};
use crate::ir::generic::{Fork, Local, RtCall, Staged};
use crate::sema::{symbols, uses, Storage};
use crate::source::Span;
use std::collections::BTreeSet;

pub(super) fn span_of(n: Node<'_>) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

pub(super) fn node_at<'t>(tree: &'t CTree, span: Span) -> Option<Node<'t>> {
    let root = tree.root()?;
    let mut n = root.descendant_for_byte_range(span.start, span.end)?;
    while n.start_byte() == span.start && n.end_byte() == span.end {
        match n.parent() {
            Some(p) if p.start_byte() == span.start && p.end_byte() == span.end => n = p,
            _ => break,
        }
    }
    Some(n)
}

/// The node of `span` (for other lowering modules).
pub fn node_in(tree: &CTree, span: Span) -> Option<Node<'_>> {
    node_at(tree, span)
}

/// Assignments (`x = e`, `x op= e`, `x++`) to the plain variable `name` in
/// `n`, not counting those in scopes that declare their own `name`.
pub fn assignments_to(n: Node<'_>, text: &str, name: &str, out: &mut Vec<Span>) {
    let t = |n: Node<'_>| text.get(n.start_byte()..n.end_byte()).unwrap_or("");
    match n.kind() {
        "assignment_expression" | "update_expression" => {
            let target = n
                .child_by_field_name("left")
                .or_else(|| n.child_by_field_name("argument"));
            if target.is_some_and(|x| x.kind() == "identifier" && t(x) == name) {
                out.push(span_of(n));
            }
        }
        "compound_statement" => {
            // A block that declares its own `name` hides the variable.
            let mut c = n.walk();
            let declares = n.named_children(&mut c).any(|ch| {
                ch.kind() == "declaration" && {
                    let mut v = Vec::new();
                    symbols::declared_by(ch, text, Storage::Local, &mut v);
                    v.iter().any(|s| s.name == name)
                }
            });
            if declares {
                return;
            }
        }
        _ => {}
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        assignments_to(k, text, name, out);
    }
}

/// Names assigned as a whole (`x = e`, `x += e`, `x++`) in `n`.
pub(super) fn direct_writes(n: Node<'_>, text: &str, out: &mut BTreeSet<String>) {
    if matches!(n.kind(), "assignment_expression" | "update_expression") {
        let mut target = n
            .child_by_field_name("left")
            .or_else(|| n.child_by_field_name("argument"));
        while let Some(t) = target.filter(|t| t.kind() == "parenthesized_expression") {
            target = t.named_child(0);
        }
        if let Some(t) = target.filter(|t| t.kind() == "identifier") {
            out.insert(
                text.get(t.start_byte()..t.end_byte())
                    .unwrap_or("")
                    .to_string(),
            );
        }
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        direct_writes(k, text, out);
    }
}

/// Names whose address is taken (`&x`) in `n`: a callee may write them.
pub(super) fn address_taken(n: Node<'_>, text: &str, out: &mut BTreeSet<String>) {
    if n.kind() == "pointer_expression" {
        let op = n.child_by_field_name("operator");
        let arg = n.child_by_field_name("argument");
        if let (Some(op), Some(arg)) = (op, arg) {
            if text.get(op.start_byte()..op.end_byte()) == Some("&") && arg.kind() == "identifier" {
                out.insert(
                    text.get(arg.start_byte()..arg.end_byte())
                        .unwrap_or("")
                        .to_string(),
                );
            }
        }
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        address_taken(k, text, out);
    }
}

/// Calls of `omp_*` queries with no argument in `n`.
pub(super) fn runtime_calls(n: Node<'_>, text: &str, out: &mut Vec<(Span, RtCall)>) {
    if n.kind() == "call_expression" {
        let f = n.child_by_field_name("function");
        let args = n.child_by_field_name("arguments");
        if let (Some(f), Some(a)) = (f, args) {
            if f.kind() == "identifier" && a.named_child_count() == 0 {
                if let Some(c) =
                    RtCall::from_name(text.get(f.start_byte()..f.end_byte()).unwrap_or(""))
                {
                    out.push((span_of(n), c));
                    return;
                }
            }
        }
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        runtime_calls(k, text, out);
    }
}

/// The end of the scope a declaration at `decl` belongs to.
pub(super) fn scope_end(tree: &CTree, decl: Span, fallback: usize) -> usize {
    let Some(mut n) = node_at(tree, decl) else {
        return fallback;
    };
    while let Some(p) = n.parent() {
        if matches!(p.kind(), "compound_statement" | "for_statement") {
            return p.end_byte();
        }
        n = p;
    }
    fallback
}

/// The declarator (as written in the declaration) that declares the name
/// at `name`, and its initializer.
pub(super) fn declarator_site(
    tree: &CTree,
    decl: Span,
    name: Span,
) -> Option<(Span, Option<Span>)> {
    let d = node_at(tree, decl)?;
    let d = if d.kind() == "declaration" {
        d
    } else {
        let mut n = d;
        loop {
            if n.kind() == "declaration" {
                break n;
            }
            n = n.parent()?;
        }
    };
    let mut c = d.walk();
    let decls: Vec<Node<'_>> = d.children_by_field_name("declarator", &mut c).collect();
    let top = decls.into_iter().find(|x| name.within(span_of(*x)))?;
    if top.kind() == "init_declarator" {
        let init = top.child_by_field_name("value").map(span_of);
        Some((span_of(top), init))
    } else {
        Some((span_of(top), None))
    }
}

/// The declaration that declares the name at `name` (a symbol's span).
pub(super) fn symbols_decl_span(tree: &CTree, name: Span) -> Option<Span> {
    let mut n = node_at(tree, name)?;
    loop {
        if n.kind() == "declaration" {
            return Some(span_of(n));
        }
        n = n.parent()?;
    }
}

/// `{ #pragma omp teams ... stmt }`: a block whose only statement is the
/// construct `n` (closely nested: nothing else runs in the block).
pub fn only_statement(tree: &CTree, block: Option<Span>, n: &Attached) -> bool {
    let Some(b) = block.and_then(|b| node_at(tree, b)) else {
        return false;
    };
    if b.kind() != "compound_statement" {
        return false;
    }
    let mut c = b.walk();
    let stmts: Vec<Node<'_>> = b
        .named_children(&mut c)
        .filter(|x| x.kind() != "comment")
        .collect();
    stmts.len() == 1
        && Some(span_of(stmts[0])) == n.stmt
        && n.directive.span.start > b.start_byte()
        && n.directive.span.end <= stmts[0].start_byte()
}

/// Every variable declared in `n` (declarations and for-loop initializers).
pub fn declared_in(n: Node<'_>, text: &str, out: &mut Vec<symbols::Symbol>) {
    if n.kind() == "declaration" {
        let mut v = Vec::new();
        symbols::declared_by(n, text, Storage::Local, &mut v);
        out.extend(
            v.into_iter()
                .filter(|s| !s.is_typedef && !s.ty.is_function()),
        );
        return;
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        declared_in(k, text, out);
    }
}

/// Variables declared in the sequential part (outside every fork) that are
/// not staged: they live in the master's registers.
pub(super) fn collect_locals(
    n: Node<'_>,
    text: &str,
    forks: &[Fork],
    staged: &[Staged],
    out: &mut Vec<Local>,
) {
    let sp = span_of(n);
    if forks.iter().any(|f| sp.within(f.stmt)) {
        return;
    }
    if n.kind() == "declaration" {
        let mut v = Vec::new();
        symbols::declared_by(n, text, Storage::Local, &mut v);
        for s in v {
            if s.is_typedef || s.ty.is_function() {
                continue;
            }
            if staged.iter().any(|x| !x.region_var && x.span == s.span) {
                continue;
            }
            out.push(Local {
                name: s.name,
                ty: s.ty,
                span: s.span,
            });
        }
        return;
    }
    let mut c = n.walk();
    let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
    for k in kids {
        collect_locals(k, text, forks, staged, out);
    }
}

/// Variables of the host that the `num_threads` and `if` clauses of nested
/// constructs name (the master evaluates them at the fork, so the region
/// captures them like the block's own free variables; pragmas are masked
/// out of the C tree, so `free_identifiers` does not see them). Names
/// declared inside the block are the sequential part's own.
pub(super) fn clause_uses(
    tree: &CTree,
    text: &str,
    root: Node<'_>,
    block: Span,
    nested: &[&Attached],
    used: &mut Vec<uses::Use>,
) {
    for n in nested {
        let Some(at) = n.stmt.and_then(|s| node_at(tree, s)) else {
            continue;
        };
        let mut syms = None;
        for c in &n.directive.clauses {
            if c.name == "lastprivate" {
                // Stored after the loop even when the loop never names it (#14).
                for item in c.items() {
                    if used.iter().any(|u| u.name == item.name) {
                        continue;
                    }
                    let syms = syms.get_or_insert_with(|| symbols::visible_at(root, text, at));
                    let Some(sym) = syms.get(&item.name) else {
                        continue;
                    };
                    if sym.is_typedef || sym.ty.is_function() || sym.decl_span.within(block) {
                        continue;
                    }
                    used.push(uses::Use {
                        name: item.name.clone(),
                        span: item.span,
                        written: true,
                        assigned: true,
                    });
                }
                continue;
            }
            if !matches!(c.name.as_str(), "num_threads" | "if") {
                continue;
            }
            let Some(e) = c.expr() else { continue };
            let b = e.text.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let name = &e.text[start..i];
                if used.iter().any(|u| u.name == name) {
                    continue;
                }
                let syms = syms.get_or_insert_with(|| symbols::visible_at(root, text, at));
                let Some(sym) = syms.get(name) else { continue };
                if sym.is_typedef || sym.ty.is_function() || sym.decl_span.within(block) {
                    continue;
                }
                used.push(uses::Use {
                    name: name.to_string(),
                    span: Span::new(e.span.start + start, e.span.start + i),
                    written: false,
                    assigned: false,
                });
            }
        }
    }
}
