//! Attaching each pragma to the statement that follows it.

use super::CTree;
use crate::directives::Directive;
use crate::source::{cond, Span};
use tree_sitter::Node;

/// A parsed directive with the statement it governs (if any) and the
/// function it appears in.
#[derive(Clone, Debug)]
pub struct Attached {
    pub directive: Directive,
    /// The associated statement (for executable directives), as a span; the
    /// node is found again through [`CTree`] by later stages.
    pub stmt: Option<Span>,
    /// Name and span of the enclosing function definition.
    pub function: Option<(String, Span)>,
}

const STATEMENT_KINDS: &[&str] = &[
    "for_statement",
    "compound_statement",
    "expression_statement",
    "if_statement",
    "while_statement",
    "do_statement",
    "switch_statement",
    "return_statement",
    "declaration",
    "function_definition",
    "labeled_statement",
    "break_statement",
    "continue_statement",
    "goto_statement",
];

/// The first byte at or after `pos` that is not whitespace or inside a comment.
fn skip_space(text: &str, mut pos: usize) -> usize {
    let b = text.as_bytes();
    loop {
        while pos < b.len() && (b[pos] as char).is_ascii_whitespace() {
            pos += 1;
        }
        if b.get(pos) == Some(&b'/') && b.get(pos + 1) == Some(&b'*') {
            pos = text[pos + 2..]
                .find("*/")
                .map(|p| pos + 2 + p + 2)
                .unwrap_or(b.len());
            continue;
        }
        if b.get(pos) == Some(&b'/') && b.get(pos + 1) == Some(&b'/') {
            pos = text[pos..].find('\n').map(|p| pos + p).unwrap_or(b.len());
            continue;
        }
        return pos;
    }
}

/// The outermost statement node that starts exactly at `pos`.
pub fn statement_at<'t>(root: Node<'t>, pos: usize) -> Option<Node<'t>> {
    let mut node = root.descendant_for_byte_range(pos, pos)?;
    let mut best = None;
    loop {
        if node.start_byte() != pos {
            break;
        }
        if STATEMENT_KINDS.contains(&node.kind()) {
            best = Some(node);
        }
        match node.parent() {
            Some(p) => node = p,
            None => break,
        }
    }
    best
}

/// The function definition that encloses `pos`, with its name.
pub fn enclosing_function(root: Node<'_>, text: &str, pos: usize) -> Option<(String, Span)> {
    let mut node = root.descendant_for_byte_range(pos, pos)?;
    loop {
        if node.kind() == "function_definition" {
            let name = function_name(node, text).unwrap_or_default();
            return Some((name, Span::new(node.start_byte(), node.end_byte())));
        }
        node = node.parent()?;
    }
}

/// The declared name of a function definition.
pub fn function_name(def: Node<'_>, text: &str) -> Option<String> {
    let mut d = def.child_by_field_name("declarator")?;
    loop {
        match d.kind() {
            "identifier" => return text.get(d.start_byte()..d.end_byte()).map(str::to_string),
            _ => d = d.child_by_field_name("declarator")?,
        }
    }
}

/// Attaches every directive to the statement that follows its pragma. `ends`
/// gives, for each directive, the end of its pragma text.
///
/// A pragma that ends an arm of an `#if` group governs the statement after
/// the `#endif` (see [`crate::source::cond`]).
pub fn attach(tree: &CTree, directives: Vec<Directive>) -> Vec<Attached> {
    let mut out = Vec::new();
    let mut groups: Option<Vec<cond::CondGroup>> = None;
    for d in directives {
        let (stmt, function) = match tree.root() {
            Some(root) => {
                let mut pos = skip_space(&tree.text, d.span.end);
                if tree.text.as_bytes().get(pos) == Some(&b'#') {
                    let gs = groups.get_or_insert_with(|| cond::groups(&tree.text));
                    if let Some(after) = cond::after_arm(gs, d.span.start, pos) {
                        pos = skip_space(&tree.text, after);
                    }
                }
                let stmt = statement_at(root, pos).map(|n| Span::new(n.start_byte(), n.end_byte()));
                let function = enclosing_function(root, &tree.text, d.span.start);
                (stmt, function)
            }
            None => (None, None),
        };
        out.push(Attached {
            directive: d,
            stmt,
            function,
        });
    }
    out
}
