//! Attaching each pragma to the statement that follows it.

use super::fields::NodeFields;
use super::CTree;
use crate::directives::Directive;
use crate::front::c::Node;
use crate::source::{cond, Span};

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
fn skip_space(text: &str, pos: usize) -> usize {
    skip_space_noting(text, pos, &mut Vec::new())
}

/// [`skip_space`], noting the byte range of every comment it crosses.
fn skip_space_noting(text: &str, mut pos: usize, comments: &mut Vec<(usize, usize)>) -> usize {
    let b = text.as_bytes();
    loop {
        while pos < b.len() && (b[pos] as char).is_ascii_whitespace() {
            pos += 1;
        }
        let start = pos;
        if b.get(pos) == Some(&b'/') && b.get(pos + 1) == Some(&b'*') {
            pos = text[pos + 2..]
                .find("*/")
                .map(|p| pos + 2 + p + 2)
                .unwrap_or(b.len());
            comments.push((start, pos));
            continue;
        }
        if b.get(pos) == Some(&b'/') && b.get(pos + 1) == Some(&b'/') {
            pos = text[pos..].find('\n').map(|p| pos + p).unwrap_or(b.len());
            comments.push((start, pos));
            continue;
        }
        return pos;
    }
}

/// The last stretch [`skip_space`] crossed. Stacked pragmas are blanked in
/// the parsed text, so the first one's skip crosses all the others: a pragma
/// that ends inside the stretch skips to the same place, found without
/// rescanning (linear in the file however many pragmas are stacked).
#[derive(Default)]
struct SkippedGap {
    from: usize,
    to: usize,
    comments: Vec<(usize, usize)>,
}

impl SkippedGap {
    fn skip(&mut self, text: &str, pos: usize) -> usize {
        let in_stretch = self.from < pos && pos <= self.to;
        if in_stretch && !self.inside_comment(pos) {
            return self.to;
        }
        self.comments.clear();
        self.from = pos;
        self.to = skip_space_noting(text, pos, &mut self.comments);
        self.to
    }

    /// Whether `pos` lies strictly inside one of the stretch's comments
    /// (where a fresh scan would stop at the comment's text).
    fn inside_comment(&self, pos: usize) -> bool {
        let i = self.comments.partition_point(|&(start, _)| start < pos);
        i > 0 && pos < self.comments[i - 1].1
    }
}

/// The outermost statement node that starts exactly at `pos` (tree-sitter's
/// own lookups: the reference the faster [`Locator`] is tested against).
#[cfg(test)]
fn statement_at<'t>(root: Node<'t>, pos: usize) -> Option<Node<'t>> {
    let mut node = root.descendant_for_byte_range(pos, pos)?;
    let mut best = None;
    loop {
        if node.start_byte() != pos {
            break;
        }
        if STATEMENT_KINDS.contains(&node.kind_name()) {
            best = Some(node);
        }
        match node.parent() {
            Some(p) => node = p,
            None => break,
        }
    }
    best
}

/// The function definition that encloses `pos`, with its name (reference, see above).
#[cfg(test)]
fn enclosing_function(root: Node<'_>, text: &str, pos: usize) -> Option<(String, Span)> {
    let mut node = root.descendant_for_byte_range(pos, pos)?;
    loop {
        if node.kind_name() == "function_definition" {
            let name = function_name(node, text).unwrap_or_default();
            return Some((name, Span::new(node.start_byte(), node.end_byte())));
        }
        node = node.parent()?;
    }
}

/// The declared name of a function definition.
pub fn function_name(def: Node<'_>, text: &str) -> Option<String> {
    let mut d = def.field("declarator")?;
    loop {
        match d.kind_name() {
            "identifier" => return text.get(d.start_byte()..d.end_byte()).map(str::to_string),
            _ => d = d.field("declarator")?,
        }
    }
}

/// Finds the nodes around byte positions of one tree. tree-sitter's own
/// `descendant_for_byte_range` scans the children of every level from the
/// first, and `Node::parent` descends again from the root, so with thousands
/// of top-level definitions each lookup is linear in the file and attaching
/// every directive quadratic. The locator binary-searches the top level once
/// per position and keeps the path it descended, so parents cost nothing.
struct Locator<'t> {
    top: Vec<Node<'t>>,
}

impl<'t> Locator<'t> {
    fn new(root: Node<'t>) -> Self {
        let mut c = root.walk();
        let top = root.children(&mut c).collect();
        Locator { top }
    }

    /// The nodes that contain `pos` (start <= pos < end), outermost first,
    /// the root excluded: the ancestors of `descendant_for_byte_range(pos, pos)`.
    /// `stop` ends the descent early at a node it accepts.
    fn path(&self, pos: usize, stop: impl Fn(&Node<'t>) -> bool) -> Vec<Node<'t>> {
        let i = self.top.partition_point(|n| n.start_byte() <= pos);
        let Some(&first) = i.checked_sub(1).and_then(|i| self.top.get(i)) else {
            return Vec::new();
        };
        if pos >= first.end_byte() {
            return Vec::new();
        }
        let mut path = vec![first];
        if stop(&first) {
            return path;
        }
        let mut c = first.walk();
        // The first child that ends after `pos`; it contains `pos` unless it starts after it.
        while c.goto_first_child_for_byte(pos).is_some() {
            let n = c.node();
            if n.start_byte() > pos {
                break;
            }
            path.push(n);
            if stop(&n) {
                break;
            }
        }
        path
    }

    /// [`statement_at`] on the path to `pos`.
    fn statement_at(&self, pos: usize) -> Option<Node<'t>> {
        self.path(pos, |_| false)
            .into_iter()
            .rev()
            .take_while(|n| n.start_byte() == pos)
            .filter(|n| STATEMENT_KINDS.contains(&n.kind_name()))
            .last()
    }

    /// [`enclosing_function`] on the path to `pos`; the descent stops at the
    /// first function definition (C has no nested functions; for GNU C's,
    /// this is the outer one, before which a kernel belongs anyway).
    fn enclosing_function(&self, text: &str, pos: usize) -> Option<(String, Span)> {
        let is_def = |n: &Node<'t>| n.kind_name() == "function_definition";
        let def = self.path(pos, is_def).into_iter().rev().find(is_def)?;
        let name = function_name(def, text).unwrap_or_default();
        Some((name, Span::new(def.start_byte(), def.end_byte())))
    }
}

/// Attaches every directive to the statement that follows its pragma.
///
/// A pragma that ends an arm of an `#if` group governs the statement after
/// the `#endif` (see [`crate::source::cond`]).
pub fn attach(tree: &CTree, directives: Vec<Directive>) -> Vec<Attached> {
    let mut out = Vec::with_capacity(directives.len());
    let mut groups: Option<Vec<cond::CondGroup>> = None;
    let locator = tree.root().map(Locator::new);
    let mut gap = SkippedGap::default();
    for d in directives {
        let (stmt, function) = match &locator {
            Some(loc) => {
                let mut pos = gap.skip(&tree.text, d.span.end);
                if tree.text.as_bytes().get(pos) == Some(&b'#') {
                    let gs = groups.get_or_insert_with(|| cond::groups(&tree.text));
                    if let Some(after) = cond::after_arm(gs, d.span.start, pos) {
                        pos = skip_space(&tree.text, after);
                    }
                }
                let stmt = loc
                    .statement_at(pos)
                    .map(|n| Span::new(n.start_byte(), n.end_byte()));
                let function = loc.enclosing_function(&tree.text, d.span.start);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::parse_c;

    /// The locator finds what tree-sitter's own lookups find, at every offset.
    #[test]
    fn locator_agrees_with_tree_sitter() {
        let text = "int g;\nvoid f(int n) {\n  if (n) {\n    for (int i = 0; i < n; i++) g += i;\n  }\n  g = 1; /* c */\n}\nint h(void) { return g; }\nstruct s { int a; };\n";
        let tree = parse_c(text.to_string());
        let root = tree.root().unwrap();
        let loc = Locator::new(root);
        for pos in 0..=text.len() + 2 {
            assert_eq!(
                loc.statement_at(pos).map(|n| n.id()),
                statement_at(root, pos).map(|n| n.id()),
                "statement at {pos}"
            );
            assert_eq!(
                loc.enclosing_function(text, pos),
                enclosing_function(root, text, pos),
                "function at {pos}"
            );
        }
    }

    /// The remembered stretch answers exactly what a fresh scan would, for
    /// positions in and past it.
    #[test]
    fn skipped_gap_agrees_with_skip_space() {
        let text = "a;\n      \n   /* c */  \n     \n  b; // x\n   c;";
        let mut gap = SkippedGap::default();
        for pos in 0..=text.len() {
            assert_eq!(gap.skip(text, pos), skip_space(text, pos), "from {pos}");
        }
    }
}
