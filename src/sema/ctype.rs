//! C types as the translator needs them: the declaration specifiers as text
//! and the declarator's derivations (pointer, array) from the name outward.

use crate::front::fields::NodeFields;
use crate::source::Span;
use tree_sitter::Node;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deriv {
    /// `*` with its qualifiers (`const`, `restrict`), as written.
    Pointer { quals: Vec<String> },
    /// `[size]`; `None` for `[]`.
    Array(Option<String>),
    /// A function declarator: the symbol is a function (or pointer to one).
    Function,
}

/// `base` is the specifier text without storage class (`const double`,
/// `unsigned long`, `struct point`); `derivs` read from the name outward:
/// `double (*a)[M]` is `[Pointer, Array(M)]`, `int *p[4]` is `[Array(4), Pointer]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CType {
    pub base: String,
    pub derivs: Vec<Deriv>,
}

impl CType {
    pub fn is_scalar(&self) -> bool {
        self.derivs.is_empty()
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self.derivs.first(), Some(Deriv::Pointer { .. }))
    }

    pub fn is_array(&self) -> bool {
        matches!(self.derivs.first(), Some(Deriv::Array(_)))
    }

    pub fn is_function(&self) -> bool {
        self.derivs.iter().any(|d| matches!(d, Deriv::Function))
    }

    /// Number of leading array-or-pointer levels (subscriptable dimensions).
    pub fn dims(&self) -> usize {
        self.derivs
            .iter()
            .take_while(|d| !matches!(d, Deriv::Function))
            .count()
    }

    /// Any array dimension without a compile-time-looking size (VLA)?
    pub fn array_sizes(&self) -> Vec<Option<&str>> {
        self.derivs
            .iter()
            .filter_map(|d| match d {
                Deriv::Array(s) => Some(s.as_deref()),
                _ => None,
            })
            .collect()
    }

    pub fn is_const_base(&self) -> bool {
        self.base.split_whitespace().any(|w| w == "const")
    }

    /// The base type with qualifiers removed (for value copies).
    pub fn unqualified_base(&self) -> String {
        self.base
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    *w,
                    "const" | "volatile" | "restrict" | "__restrict" | "__restrict__"
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The type with the first derivation removed: the element type of an
    /// array or the pointee of a pointer.
    pub fn element(&self) -> CType {
        CType {
            base: self.base.clone(),
            derivs: self.derivs.iter().skip(1).cloned().collect(),
        }
    }

    /// The same type with the outermost array turned into a pointer (how it is
    /// passed to a function).
    pub fn decayed(&self) -> CType {
        let mut t = self.clone();
        if let Some(Deriv::Array(_)) = t.derivs.first() {
            t.derivs[0] = Deriv::Pointer { quals: vec![] };
        }
        t
    }

    /// Writes a declaration of `name` with this type: `double (*a)[M]`.
    pub fn declare(&self, name: &str) -> String {
        let mut s = name.to_string();
        let mut prev_ptr = false;
        for d in &self.derivs {
            match d {
                Deriv::Pointer { quals } => {
                    let q = if quals.is_empty() {
                        String::new()
                    } else {
                        format!("{} ", quals.join(" "))
                    };
                    s = format!("*{q}{s}");
                    prev_ptr = true;
                }
                Deriv::Array(n) => {
                    if prev_ptr {
                        s = format!("({s})");
                    }
                    s = format!("{s}[{}]", n.as_deref().unwrap_or(""));
                    prev_ptr = false;
                }
                Deriv::Function => {
                    if prev_ptr {
                        s = format!("({s})");
                    }
                    s = format!("{s}()");
                    prev_ptr = false;
                }
            }
        }
        format!("{} {}", self.base, s)
    }

    /// The type name alone (for casts and template arguments): `double (*)[M]`.
    pub fn type_name(&self) -> String {
        self.declare("").trim_end().replace(" ()", "()").to_string()
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(base: &str, derivs: Vec<Deriv>) -> CType {
        CType {
            base: base.into(),
            derivs,
        }
    }

    #[test]
    fn declares_pointer_to_array() {
        let t = ty(
            "double",
            vec![
                Deriv::Pointer { quals: vec![] },
                Deriv::Array(Some("M".into())),
            ],
        );
        assert_eq!(t.declare("a"), "double (*a)[M]");
    }

    #[test]
    fn declares_array_of_pointers() {
        let t = ty(
            "int",
            vec![
                Deriv::Array(Some("4".into())),
                Deriv::Pointer { quals: vec![] },
            ],
        );
        assert_eq!(t.declare("p"), "int *p[4]");
    }

    #[test]
    fn decays_outer_array() {
        let t = ty(
            "double",
            vec![
                Deriv::Array(Some("N".into())),
                Deriv::Array(Some("M".into())),
            ],
        );
        assert_eq!(t.decayed().declare("a"), "double (*a)[M]");
    }
}
