//! C types as the translator needs them: the declaration specifiers as text
//! and the declarator's derivations (pointer, array) from the name outward.

use crate::front::c::Node;
use crate::front::fields::NodeFields;
use crate::source::Span;

pub use crate::ir::c::{CType, Deriv};

/// The storage-class-free specifier text of a declaration-like node
/// (`declaration`, `parameter_declaration`, `field_declaration`).
pub fn specifiers(decl: Node<'_>, text: &str) -> (String, bool, bool, bool) {
    specifiers_and_declarators(decl, text, None)
}

/// [`specifiers`], and the `declarator` children of `decl` pushed onto
/// `declarators` (what `children_by_field_name("declarator")` gives) in the
/// same walk over the children.
pub fn specifiers_and_declarators<'t>(
    decl: Node<'t>,
    text: &str,
    mut declarators: Option<&mut Vec<Node<'t>>>,
) -> (String, bool, bool, bool) {
    // The parts joined with spaces (an empty part too, as `join` would).
    let mut base = String::new();
    let mut parts = 0;
    let (mut is_static, mut is_extern, mut is_typedef) =
        (false, false, decl.kind_name() == "type_definition");
    // The cursor's field of each child: `field_name_for_child` would walk the
    // children again for every one.
    let declarator = crate::front::fields::field_id("declarator");
    let mut cursor = decl.walk();
    let mut more = cursor.goto_first_child();
    while more {
        let child = cursor.node();
        let field = cursor.field_id();
        more = cursor.goto_next_sibling();
        if field.is_some() && field == declarator {
            if let Some(ds) = declarators.as_mut() {
                ds.push(child);
            }
            continue;
        }
        let t = text.get(child.start_byte()..child.end_byte()).unwrap_or("");
        match child.kind_name() {
            "storage_class_specifier" => match t {
                "static" => is_static = true,
                "extern" => is_extern = true,
                _ => {}
            },
            "type_qualifier"
            | "primitive_type"
            | "sized_type_specifier"
            | "type_identifier"
            | "struct_specifier"
            | "union_specifier"
            | "enum_specifier"
            | "macro_type_specifier" => {
                if parts > 0 {
                    base.push(' ');
                }
                base.push_str(t);
                parts += 1;
            }
            "typedef" => is_typedef = true,
            _ => {}
        }
    }
    (base, is_static, is_extern, is_typedef)
}

/// The name [`declarator`] reads from `node` (the same walk, without the
/// derivations).
pub fn declarator_name<'s>(node: Node<'_>, text: &'s str) -> Option<&'s str> {
    match node.kind_name() {
        "identifier" | "field_identifier" | "type_identifier" => {
            Some(text.get(node.start_byte()..node.end_byte()).unwrap_or(""))
        }
        "init_declarator" | "parenthesized_declarator" | "attributed_declarator" => {
            let inner = node.field("declarator").or_else(|| node.named_child(0))?;
            declarator_name(inner, text)
        }
        "pointer_declarator"
        | "abstract_pointer_declarator"
        | "array_declarator"
        | "function_declarator" => declarator_name(node.field("declarator")?, text),
        _ => None,
    }
}

/// Reads a declarator: the declared name, its span and derivations.
pub fn declarator(node: Node<'_>, text: &str) -> Option<(String, Span, Vec<Deriv>)> {
    let t = |n: Node<'_>| {
        text.get(n.start_byte()..n.end_byte())
            .unwrap_or("")
            .to_string()
    };
    match node.kind_name() {
        "identifier" | "field_identifier" | "type_identifier" => Some((
            t(node),
            Span::new(node.start_byte(), node.end_byte()),
            Vec::new(),
        )),
        "init_declarator" | "parenthesized_declarator" | "attributed_declarator" => {
            let inner = node.field("declarator").or_else(|| node.named_child(0))?;
            declarator(inner, text)
        }
        "pointer_declarator" | "abstract_pointer_declarator" => {
            let inner = node.field("declarator")?;
            let mut quals = Vec::new();
            let mut c = node.walk();
            for ch in node.children(&mut c) {
                if ch.kind_name() == "type_qualifier" {
                    quals.push(t(ch));
                }
            }
            let (name, span, mut d) = declarator(inner, text)?;
            d.push(Deriv::Pointer { quals });
            Some((name, span, d))
        }
        "array_declarator" => {
            let inner = node.field("declarator")?;
            let size = node.field("size").map(t);
            let (name, span, mut d) = declarator(inner, text)?;
            d.push(Deriv::Array(size));
            Some((name, span, d))
        }
        "function_declarator" => {
            let inner = node.field("declarator")?;
            let (name, span, mut d) = declarator(inner, text)?;
            d.push(Deriv::Function);
            Some((name, span, d))
        }
        _ => None,
    }
}
