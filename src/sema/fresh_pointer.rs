//! Local pointers that cannot point into mapped data.
//!
//! A pointer a region uses with no data clause is a zero-length array
//! section when the file maps data dynamically (`enter data`, `acc_copyin`):
//! the runtime looks its address up and it must be present. That is right
//! for a pointer that may hold a mapped address, and certainly wrong for one
//! that cannot: a local pointer whose only values come from `malloc`,
//! `calloc` or `aligned_alloc` and whose address never leaves the function
//! (it is only subscripted, freed, or measured with `sizeof`) and that no
//! directive or macro names. Such a pointer is found here, so that it gets
//! the located refusal of an unmapped pointer (E0401) at translation rather
//! than a "not present" error at run time. (The driver asks only for
//! regions without `if` / `self`, which may run on the host instead.)

use crate::front::c::Node;
use crate::front::fields::NodeFields;
use crate::source::mask::mentions_word;
use std::collections::{BTreeSet, HashMap};

const ALLOCATORS: &[&str] = &["malloc", "calloc", "aligned_alloc"];

/// The pointers declared in `func` (a function definition) that cannot
/// point into mapped data. `directives` are the texts of the pragmas inside
/// the function (the C tree has them masked out); `text` is the file's text.
pub fn never_mapped(func: Node<'_>, text: &str, directives: &[&str]) -> BTreeSet<String> {
    let mut occurrences: HashMap<&str, Vec<Node<'_>>> = HashMap::new();
    collect_identifiers(func, text, &mut occurrences);
    let macros: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with('#') && l.contains("define"))
        .collect();
    occurrences
        .into_iter()
        .filter(|(name, nodes)| {
            declarations(nodes) == 1
                && nodes.iter().all(|n| harmless(*n, text))
                && !directives.iter().any(|d| mentions_word(d, name))
                && !macros.iter().any(|m| mentions_word(m, name))
        })
        .map(|(name, _)| name.to_string())
        .collect()
}

fn collect_identifiers<'t>(
    node: Node<'t>,
    text: &'t str,
    out: &mut HashMap<&'t str, Vec<Node<'t>>>,
) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind_name() == "identifier" {
            out.entry(&text[n.byte_range()]).or_default().push(n);
            continue;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
}

/// How many of the occurrences declare the name (as a pointer variable).
fn declarations(nodes: &[Node<'_>]) -> usize {
    nodes
        .iter()
        .filter(|n| declaration_of(**n).is_some())
        .count()
}

/// The `declaration` an identifier declares as a pointer (`T *p`, `T *p = e`).
fn declaration_of(id: Node<'_>) -> Option<Node<'_>> {
    let ptr = id
        .parent()
        .filter(|p| p.kind_name() == "pointer_declarator")?;
    if ptr.field("declarator") != Some(id) {
        return None;
    }
    let up = ptr.parent()?;
    match up.kind_name() {
        "declaration" => Some(up),
        "init_declarator" if up.field("declarator") == Some(ptr) => {
            up.parent().filter(|d| d.kind_name() == "declaration")
        }
        _ => None,
    }
}

/// Whether this occurrence keeps the pointer's value to itself: its
/// declaration (no initializer, or an allocation), an assignment of an
/// allocation to it, a subscript whose element address is not taken, an
/// argument of `free`, an operand of `sizeof`.
fn harmless(id: Node<'_>, text: &str) -> bool {
    if let Some(ptr) = id
        .parent()
        .filter(|p| p.kind_name() == "pointer_declarator")
    {
        if declaration_of(id).is_none() {
            return false;
        }
        return match ptr.parent() {
            Some(init) if init.kind_name() == "init_declarator" => {
                init.field("value").is_some_and(|v| is_allocation(v, text))
            }
            _ => true,
        };
    }
    let Some(parent) = id.parent() else {
        return false;
    };
    match parent.kind_name() {
        "subscript_expression" if parent.field("argument") == Some(id) => !address_taken(parent),
        "assignment_expression" if parent.field("left") == Some(id) => {
            parent
                .field("operator")
                .is_some_and(|o| &text[o.byte_range()] == "=")
                && parent
                    .field("right")
                    .is_some_and(|v| is_allocation(v, text))
        }
        "argument_list" => parent.parent().is_some_and(|call| {
            parent.named_child_count() == 1
                && call
                    .field("function")
                    .is_some_and(|f| &text[f.byte_range()] == "free")
        }),
        "sizeof_expression" => true,
        _ => false,
    }
}

/// `&p[i]` (also through parentheses): the element's address escapes.
fn address_taken(subscript: Node<'_>) -> bool {
    let mut n = subscript;
    while let Some(p) = n.parent() {
        match p.kind_name() {
            "parenthesized_expression" => n = p,
            "pointer_expression" => return p.child(0).is_some_and(|o| o.kind() == "&"),
            _ => return false,
        }
    }
    false
}

/// `malloc(...)`, `calloc(...)`, `aligned_alloc(...)`, through casts and
/// parentheses.
fn is_allocation(e: Node<'_>, text: &str) -> bool {
    match e.kind_name() {
        "cast_expression" => e.field("value").is_some_and(|v| is_allocation(v, text)),
        "parenthesized_expression" => e.named_child(0).is_some_and(|v| is_allocation(v, text)),
        "call_expression" => e
            .field("function")
            .is_some_and(|f| ALLOCATORS.contains(&&text[f.byte_range()])),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::never_mapped;
    use crate::front::parse_c;

    fn fresh(src: &str, directives: &[&str]) -> Vec<String> {
        let tree = parse_c(src.to_string());
        let root = tree.root().unwrap();
        let func = root.named_child(0).unwrap();
        never_mapped(func, src, directives).into_iter().collect()
    }

    #[test]
    fn allocated_and_only_subscripted() {
        let src = "void f(int n) { double *c = (double *)malloc(n * sizeof(double)); double *d;\n\
                   d = malloc(8); for (int i = 0; i < n; i++) c[i] = d[0]; free(c); free(d); }";
        assert_eq!(fresh(src, &[]), vec!["c".to_string(), "d".to_string()]);
    }

    #[test]
    fn any_escape_or_other_value_disqualifies() {
        let cases = [
            "void f(double *q) { double *c = q; c[0] = 1; }",
            "void f(void) { double *c = malloc(8); double *e = c; e[0] = 1; }",
            "void f(void) { double *c = malloc(8); g(&c[0]); }",
            "void f(void) { double *c = malloc(8); g(&(c[0])); }",
            "void f(void) { double *c = malloc(8); acc_copyin(c, 8); }",
            "void f(void) { double *c = malloc(8); c += 1; }",
            "void f(void) { double *c = malloc(8); { double *c = 0; } }",
            "void f(double *c) { c[0] = 1; }",
        ];
        for src in cases {
            assert!(fresh(src, &[]).iter().all(|n| n != "c"), "{src}");
        }
    }

    #[test]
    fn a_directive_or_macro_naming_it_disqualifies() {
        let src = "void f(void) { double *c = malloc(8); c[0] = 1; }";
        assert_eq!(fresh(src, &[]), vec!["c".to_string()]);
        assert!(fresh(src, &["#pragma acc enter data copyin(c[0:1])"]).is_empty());
        let with_macro =
            "#define MAP acc_copyin(c, 8)\nvoid f(void) { double *c = malloc(8); c[0] = 1; }";
        let tree = parse_c(with_macro.to_string());
        let func = tree.root().unwrap().named_child(1).unwrap();
        assert!(never_mapped(func, with_macro, &[]).is_empty());
    }
}
