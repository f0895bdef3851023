//! The depth limit of the C syntax tree. Brackets are limited on the text
//! (`source::nesting`), but a tree can be deep without them: an `else if`
//! chain, `a + a + ... + a`, `!!!!x`, nested unbraced `if`s. The stages
//! after the parse walk the tree recursively, so a tree deeper than
//! [`MAX_TREE_DEPTH`] is one located E0005 and nothing walks it.
//!
//! The check is cheap: a subtree with fewer nodes than the depth still
//! allowed below it cannot be too deep, and tree-sitter knows every node's
//! descendant count, so only the spine of a huge subtree is visited.

use crate::diag::{codes, Diagnostic};
use crate::front::c::Node;
use crate::source::Span;

/// The deepest syntax tree accepted: an `else if` chain of about 50,000
/// arms (two levels each), far beyond written or generated C. The driver
/// runs on a thread whose stack fits the walks at this depth.
pub const MAX_TREE_DEPTH: usize = 100_000;

/// The first node deeper than [`MAX_TREE_DEPTH`] under `root`, as E0005.
pub fn check(root: Node<'_>) -> Option<Diagnostic> {
    check_limit(root, MAX_TREE_DEPTH)
}

fn check_limit(root: Node<'_>, max: usize) -> Option<Diagnostic> {
    let mut cursor = root.walk();
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        if depth > max {
            return Some(too_deep(node, max));
        }
        // Depth below this node is at most its descendant count - 1.
        let may_be_deep = depth + node.descendant_count() > max + 1;
        if may_be_deep && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return None;
            }
            depth -= 1;
        }
    }
}

fn too_deep(node: Node<'_>, max: usize) -> Diagnostic {
    Diagnostic::new(
        codes::NESTING_TOO_DEEP,
        Span::new(node.start_byte(), node.start_byte()),
        format!("the C syntax tree nests more than {max} levels deep here"),
    )
    .with_label("too deep")
    .with_note("long `else if` chains and operator chains nest the tree; pragma2cuda refuses deeper trees rather than exhaust its stack")
    .with_help("split the chain, e.g. into a `switch`, a table or helper functions")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::parse_c;

    #[test]
    fn deep_chain_is_found_shallow_file_is_not() {
        let chain = format!("int f(int a) {{ return {}a; }}\n", "!".repeat(60));
        let t = parse_c(chain);
        let d = check_limit(t.root().unwrap(), 50).unwrap();
        assert_eq!(d.code, codes::NESTING_TOO_DEEP);
        assert!(check_limit(t.root().unwrap(), 80).is_none());
        let flat = "int a;\n".repeat(1000);
        let t = parse_c(flat);
        assert!(check_limit(t.root().unwrap(), 5).is_none());
    }
}
