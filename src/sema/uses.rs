//! The variables a region uses that are declared outside it.
//!
//! Scope-aware: a name declared inside the region (in a block, a `for`
//! initializer) hides an outer variable of the same name from that point on.
//! Field names, labels and type names are not variables.

use crate::front::c::Node;
use crate::front::fields::NodeFields;
use crate::source::Span;

/// A variable used by a region and declared outside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Use {
    pub name: String,
    /// The first use.
    pub span: Span,
    /// Assigned or incremented somewhere in the region.
    pub written: bool,
    /// The variable itself (not an element or a member of it) is assigned
    /// or incremented somewhere in the region: `p = q`, `p++`, `(p) += 1`.
    pub assigned: bool,
}

/// Free identifiers of `node` in order of first use; also the names that
/// are called as functions (`calls`).
pub fn free_identifiers(node: Node<'_>, text: &str) -> (Vec<Use>, Vec<(String, Span)>) {
    let mut w = Walker {
        text,
        scopes: vec![Vec::new()],
        uses: Vec::new(),
        calls: Vec::new(),
        every: Vec::new(),
    };
    w.visit(node);
    (w.uses, w.calls)
}

/// Every occurrence of a free variable in `node` (not only the first), in
/// source order; `bound` are names already declared around it (a function's
/// parameters).
pub fn free_occurrences(node: Node<'_>, text: &str, bound: &[String]) -> Vec<(String, Span)> {
    let mut w = Walker {
        text,
        scopes: vec![bound.to_vec()],
        uses: Vec::new(),
        calls: Vec::new(),
        every: Vec::new(),
    };
    w.visit(node);
    let mut v = w.every;
    v.sort_by_key(|(_, s)| (s.start, s.end));
    v.dedup();
    v
}

/// Whether the code under `root` uses one of `names`: as an identifier in
/// an expression (a call, an argument, an initializer) or in the body of a
/// macro definition, which may expand anywhere. The name a declaration
/// declares (a prototype) is not a use; comments and strings are not code.
pub fn uses_any(root: Node<'_>, text: &str, names: &[&str]) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let t = text.get(n.start_byte()..n.end_byte()).unwrap_or("");
        let used = match n.kind_name() {
            "identifier" => {
                names.contains(&t) && !n.parent().is_some_and(|p| p.field("declarator") == Some(n))
            }
            "preproc_arg" => names
                .iter()
                .any(|w| crate::source::mask::mentions_word(t, w)),
            _ => false,
        };
        if used {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

struct Walker<'a> {
    text: &'a str,
    scopes: Vec<Vec<String>>,
    uses: Vec<Use>,
    calls: Vec<(String, Span)>,
    every: Vec<(String, Span)>,
}

impl Walker<'_> {
    fn t(&self, n: Node<'_>) -> &str {
        self.text.get(n.start_byte()..n.end_byte()).unwrap_or("")
    }

    fn is_local(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.iter().any(|n| n == name))
    }

    fn declare(&mut self, name: String) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(name);
        }
    }

    fn use_ident(&mut self, n: Node<'_>, written: bool, assigned: bool) {
        let name = self.t(n).to_string();
        if self.is_local(&name) {
            return;
        }
        self.every
            .push((name.clone(), Span::new(n.start_byte(), n.end_byte())));
        if let Some(u) = self.uses.iter_mut().find(|u| u.name == name) {
            u.written |= written;
            u.assigned |= assigned;
        } else {
            self.uses.push(Use {
                name,
                span: Span::new(n.start_byte(), n.end_byte()),
                written,
                assigned,
            });
        }
    }

    /// The identifier an lvalue expression writes to (`a` in `a[i].x = ...`).
    fn lvalue_base<'t>(n: Node<'t>) -> Option<Node<'t>> {
        match n.kind_name() {
            "identifier" => Some(n),
            "subscript_expression" => Self::lvalue_base(n.field("argument")?),
            "field_expression" => Self::lvalue_base(n.field("argument")?),
            "parenthesized_expression" => Self::lvalue_base(n.named_child(0)?),
            "pointer_expression" => Self::lvalue_base(n.field("argument")?),
            _ => None,
        }
    }

    /// The expression inside any parentheses: `p` of `((p))`.
    fn unparenthesized(n: Node<'_>) -> Option<Node<'_>> {
        match n.kind_name() {
            "parenthesized_expression" => Self::unparenthesized(n.named_child(0)?),
            _ => Some(n),
        }
    }

    fn visit(&mut self, n: Node<'_>) {
        match n.kind_name() {
            "identifier" => self.use_ident(n, false, false),
            "compound_statement" | "for_statement" => {
                self.scopes.push(Vec::new());
                self.visit_children(n);
                self.scopes.pop();
            }
            "declaration" => {
                for ch in n.fields("declarator") {
                    self.visit_declarator(ch);
                }
            }
            "assignment_expression" | "update_expression" => {
                let target = n.field("left").or_else(|| n.field("argument"));
                if let Some(t) = target.and_then(Self::lvalue_base) {
                    let itself = target.and_then(Self::unparenthesized) == Some(t);
                    self.use_ident(t, true, itself);
                }
                self.visit_children(n);
            }
            "call_expression" => {
                if let Some(f) = n.field("function") {
                    if f.kind_name() == "identifier" {
                        let name = self.t(f).to_string();
                        if !self.is_local(&name) {
                            self.calls
                                .push((name, Span::new(f.start_byte(), f.end_byte())));
                        }
                    } else {
                        self.visit(f);
                    }
                }
                if let Some(a) = n.field("arguments") {
                    self.visit(a);
                }
            }
            "field_expression" => {
                if let Some(a) = n.field("argument") {
                    self.visit(a);
                }
            }
            "sizeof_expression" | "cast_expression" | "compound_literal_expression" => {
                // Type names inside are not variables; expressions are.
                let mut c = n.walk();
                for ch in n.named_children(&mut c) {
                    if ch.kind_name() != "type_descriptor" {
                        self.visit(ch);
                    }
                }
            }
            "labeled_statement" => {
                let mut c = n.walk();
                for ch in n.named_children(&mut c) {
                    if ch.kind_name() != "statement_identifier" {
                        self.visit(ch);
                    }
                }
            }
            "goto_statement" => {}
            _ => self.visit_children(n),
        }
    }

    fn visit_children(&mut self, n: Node<'_>) {
        let mut c = n.walk();
        let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
        for ch in kids {
            self.visit(ch);
        }
    }

    /// A declarator: sizes and initializer are uses; the name is declared
    /// after its own declarator (C scope rule), before the initializer.
    fn visit_declarator(&mut self, d: Node<'_>) {
        match d.kind_name() {
            "identifier" => {
                let name = self.t(d).to_string();
                self.declare(name);
            }
            "init_declarator" => {
                if let Some(inner) = d.field("declarator") {
                    self.visit_declarator(inner);
                }
                if let Some(v) = d.field("value") {
                    self.visit(v);
                }
            }
            "array_declarator" => {
                if let Some(s) = d.field("size") {
                    self.visit(s);
                }
                if let Some(inner) = d.field("declarator") {
                    self.visit_declarator(inner);
                }
            }
            _ => {
                if let Some(inner) = d.field("declarator") {
                    self.visit_declarator(inner);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(src: &str) -> bool {
        let tree = crate::front::parse_c(src.to_string());
        uses_any(tree.root().unwrap(), &tree.text, &["acc_copyin"])
    }

    #[test]
    fn a_routine_is_used_by_a_call_an_argument_or_a_macro_body_not_a_comment() {
        assert!(uses("void f(int *a) { acc_copyin(a, 4); }"));
        assert!(uses(
            "void g(void *(*p)(void *, int)); void f(void) { g(acc_copyin); }"
        ));
        assert!(uses(
            "#define IN(x) acc_copyin(x, sizeof x)\nvoid f(void) {}"
        ));
        assert!(!uses("/* acc_copyin(a, 4) */ void f(void) {}"));
        assert!(!uses("void f(void) { const char *s = \"acc_copyin\"; }"));
        assert!(!uses("void *acc_copyin(void *, int); void f(void) {}"));
    }

    #[test]
    fn assigned_is_the_variable_itself_not_its_elements() {
        let src = "void f(int *p, int *q, int *r, int *a) { p[0] = 1; q = a; (r)++; *a = 2; }";
        let tree = crate::front::parse_c(src.to_string());
        let body = tree.root().unwrap();
        let (used, _) = free_identifiers(body, &tree.text);
        let assigned = |n: &str| {
            used.iter()
                .find(|u| u.name == n)
                .map(|u| (u.written, u.assigned))
        };
        assert_eq!(assigned("p"), Some((true, false)));
        assert_eq!(assigned("q"), Some((true, true)));
        assert_eq!(assigned("r"), Some((true, true)));
        assert_eq!(assigned("a"), Some((true, false)));
    }
}
