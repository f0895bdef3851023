//! The declarations visible at a point of the file.
//!
//! C requires a declaration before use, so the symbols visible at a region
//! are the file-scope declarations before its function, the function's
//! parameters, and the local declarations of every enclosing block that
//! precede the region; inner ones shadow outer ones.

use super::ctype::{declarator, specifiers, CType};
use crate::source::Span;
use std::collections::HashMap;
use tree_sitter::Node;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    Global,
    Param,
    Local,
}

#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub ty: CType,
    pub storage: Storage,
    pub is_static: bool,
    pub is_extern: bool,
    pub is_typedef: bool,
    /// The declared name's span.
    pub span: Span,
    /// The whole declaration's span.
    pub decl_span: Span,
}

/// Adds the names declared by `decl` (a `declaration`, `parameter_declaration`
/// or `type_definition`) to `out`.
pub fn declared_by(decl: Node<'_>, text: &str, storage: Storage, out: &mut Vec<Symbol>) {
    let (base, is_static, is_extern, is_typedef) = specifiers(decl, text);
    let mut c = decl.walk();
    let decls: Vec<Node<'_>> = decl.children_by_field_name("declarator", &mut c).collect();
    for d in decls {
        if let Some((name, span, derivs)) = declarator(d, text) {
            let ty = CType {
                base: base.clone(),
                derivs,
            };
            // An array parameter is a pointer.
            let ty = if storage == Storage::Param {
                ty.decayed()
            } else {
                ty
            };
            out.push(Symbol {
                name,
                ty,
                storage,
                is_static,
                is_extern,
                is_typedef,
                span,
                decl_span: Span::new(decl.start_byte(), decl.end_byte()),
            });
        }
    }
}

/// Every symbol visible just before `at` (a node inside a function body).
pub fn visible_at(root: Node<'_>, text: &str, at: Node<'_>) -> HashMap<String, Symbol> {
    let mut map = HashMap::new();
    let add = |syms: Vec<Symbol>, map: &mut HashMap<String, Symbol>| {
        for s in syms {
            map.insert(s.name.clone(), s);
        }
    };
    // File scope: declarations before the enclosing top-level item.
    let mut top = at;
    while let Some(p) = top.parent() {
        if p.id() == root.id() {
            break;
        }
        top = p;
    }
    let mut c = root.walk();
    for item in root.children(&mut c) {
        if item.start_byte() >= top.start_byte() {
            break;
        }
        let mut syms = Vec::new();
        collect_file_scope(item, text, &mut syms);
        add(syms, &mut map);
    }
    // Ancestors from the outside in.
    let mut chain = Vec::new();
    let mut n = at;
    while let Some(p) = n.parent() {
        chain.push((p, n));
        n = p;
    }
    chain.reverse();
    for (parent, child) in chain {
        let mut syms = Vec::new();
        match parent.kind() {
            "function_definition" => {
                if let Some(decl) = parent.child_by_field_name("declarator") {
                    params_of(decl, text, &mut syms);
                }
            }
            "compound_statement" | "translation_unit" if parent.id() != root.id() => {
                let mut c = parent.walk();
                for item in parent.children(&mut c) {
                    if item.start_byte() >= child.start_byte() {
                        break;
                    }
                    if matches!(item.kind(), "declaration" | "type_definition") {
                        declared_by(item, text, Storage::Local, &mut syms);
                    }
                }
            }
            "for_statement" => {
                if let Some(init) = parent.child_by_field_name("initializer") {
                    if init.kind() == "declaration" && init.id() != child.id() {
                        declared_by(init, text, Storage::Local, &mut syms);
                    }
                }
            }
            _ => {}
        }
        add(syms, &mut map);
    }
    map
}

/// Every symbol visible at byte `pos`, a point between statements or
/// top-level items (where a stand-alone pragma sits).
pub fn visible_before(root: Node<'_>, text: &str, pos: usize) -> HashMap<String, Symbol> {
    // The innermost block that contains `pos`, or the file.
    let mut n = root.descendant_for_byte_range(pos, pos).unwrap_or(root);
    while n.id() != root.id()
        && !(n.kind() == "compound_statement" && n.start_byte() < pos && pos < n.end_byte())
    {
        match n.parent() {
            Some(p) => n = p,
            None => break,
        }
    }
    let at_file = n.id() == root.id();
    let mut map = if at_file {
        HashMap::new()
    } else {
        visible_at(root, text, n)
    };
    let mut c = n.walk();
    for item in n.children(&mut c) {
        if item.end_byte() > pos {
            break;
        }
        let mut syms = Vec::new();
        if at_file {
            collect_file_scope(item, text, &mut syms);
        } else if matches!(item.kind(), "declaration" | "type_definition") {
            declared_by(item, text, Storage::Local, &mut syms);
        }
        for s in syms {
            map.insert(s.name.clone(), s);
        }
    }
    map
}

fn collect_file_scope(item: Node<'_>, text: &str, out: &mut Vec<Symbol>) {
    match item.kind() {
        "declaration" | "type_definition" => declared_by(item, text, Storage::Global, out),
        "preproc_ifdef"
        | "preproc_if"
        | "preproc_else"
        | "preproc_elif"
        | "linkage_specification"
        | "declaration_list" => {
            let mut c = item.walk();
            for ch in item.named_children(&mut c) {
                collect_file_scope(ch, text, out);
            }
        }
        "function_definition" => {
            // The function itself is visible; its type does not matter here.
            if let Some(d) = item.child_by_field_name("declarator") {
                if let Some((name, span, derivs)) = declarator(d, text) {
                    out.push(Symbol {
                        name,
                        ty: CType {
                            base: String::new(),
                            derivs,
                        },
                        storage: Storage::Global,
                        is_static: false,
                        is_extern: false,
                        is_typedef: false,
                        span,
                        decl_span: Span::new(item.start_byte(), item.end_byte()),
                    });
                }
            }
        }
        _ => {}
    }
}

/// The parameters of a function declarator (through pointer declarators).
fn params_of(decl: Node<'_>, text: &str, out: &mut Vec<Symbol>) {
    let mut d = decl;
    loop {
        if d.kind() == "function_declarator" {
            if let Some(params) = d.child_by_field_name("parameters") {
                let mut c = params.walk();
                for p in params.named_children(&mut c) {
                    if p.kind() == "parameter_declaration" {
                        declared_by(p, text, Storage::Param, out);
                    }
                }
            }
            return;
        }
        match d.child_by_field_name("declarator") {
            Some(inner) => d = inner,
            None => return,
        }
    }
}
