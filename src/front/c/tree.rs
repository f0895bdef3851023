//! The syntax tree: an arena of nodes in breadth-first order, so the
//! children of a node are one contiguous slice of the arena and a sibling
//! step is an index step. Positions are computed from a table of line starts.

use super::kinds::{self, KINDS, NAMED_KINDS};

/// One node of the arena.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct NodeData {
    pub kind: u16,
    pub field: u16,
    pub flags: u8,
    pub start: u32,
    pub end: u32,
    pub parent: u32,
    pub first_child: u32,
    pub child_count: u32,
    pub descendants: u32,
}

pub(super) const MISSING: u8 = 1;
pub(super) const HAS_ERROR: u8 = 2;

/// A row and a byte column, both from 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point {
    pub row: usize,
    pub column: usize,
}

/// A node's byte range and points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    pub start_byte: usize,
    pub end_byte: usize,
    pub start_point: Point,
    pub end_point: Point,
}

/// A parsed file: the root is node 0.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    pub(super) nodes: Vec<NodeData>,
    pub(super) line_starts: Vec<u32>,
    /// Where the parse stopped descending (nesting deeper than it allows).
    pub(super) too_deep_at: Option<usize>,
}

impl Tree {
    pub fn root_node(&self) -> Node<'_> {
        Node { tree: self, idx: 0 }
    }

    /// The byte where nesting exceeded the parser's depth limit, if it did.
    pub fn too_deep_at(&self) -> Option<usize> {
        self.too_deep_at
    }

    fn point(&self, byte: u32) -> Point {
        let row = self
            .line_starts
            .partition_point(|&s| s <= byte)
            .saturating_sub(1);
        let start = self.line_starts.get(row).copied().unwrap_or(0);
        Point {
            row,
            column: (byte - start) as usize,
        }
    }
}

/// A node of a [`Tree`]; the methods are those of the tree-sitter node the
/// pipeline was written against, with the same meaning.
#[derive(Clone, Copy)]
pub struct Node<'t> {
    tree: &'t Tree,
    idx: u32,
}

impl PartialEq for Node<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.idx == other.idx && std::ptr::eq(self.tree, other.tree)
    }
}

impl Eq for Node<'_> {}

impl std::hash::Hash for Node<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.idx.hash(state);
    }
}

impl std::fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (s, e) = (self.start_position(), self.end_position());
        write!(
            f,
            "{{Node {} ({}, {}) - ({}, {})}}",
            self.kind(),
            s.row,
            s.column,
            e.row,
            e.column
        )
    }
}

impl<'t> Node<'t> {
    fn data(&self) -> &'t NodeData {
        &self.tree.nodes[self.idx as usize]
    }

    fn at(&self, idx: u32) -> Node<'t> {
        Node {
            tree: self.tree,
            idx,
        }
    }

    pub fn id(&self) -> usize {
        self.data() as *const NodeData as usize
    }

    pub fn kind_id(&self) -> u16 {
        self.data().kind
    }

    pub fn kind(&self) -> &'static str {
        KINDS[self.data().kind as usize]
    }

    pub fn grammar_name(&self) -> &'static str {
        self.kind()
    }

    pub fn is_named(&self) -> bool {
        self.data().kind < NAMED_KINDS
    }

    pub fn is_error(&self) -> bool {
        self.data().kind == kinds::ERROR
    }

    pub fn is_missing(&self) -> bool {
        self.data().flags & MISSING != 0
    }

    pub fn is_extra(&self) -> bool {
        self.data().kind == kinds::COMMENT
    }

    pub fn has_error(&self) -> bool {
        self.data().flags & HAS_ERROR != 0
    }

    pub fn start_byte(&self) -> usize {
        self.data().start as usize
    }

    pub fn end_byte(&self) -> usize {
        self.data().end as usize
    }

    pub fn byte_range(&self) -> std::ops::Range<usize> {
        self.start_byte()..self.end_byte()
    }

    pub fn start_position(&self) -> Point {
        self.tree.point(self.data().start)
    }

    pub fn end_position(&self) -> Point {
        self.tree.point(self.data().end)
    }

    pub fn range(&self) -> Range {
        Range {
            start_byte: self.start_byte(),
            end_byte: self.end_byte(),
            start_point: self.start_position(),
            end_point: self.end_position(),
        }
    }

    pub fn utf8_text<'a>(&self, source: &'a [u8]) -> Result<&'a str, std::str::Utf8Error> {
        let end = self.end_byte().min(source.len());
        std::str::from_utf8(&source[self.start_byte().min(end)..end])
    }

    pub fn child_count(&self) -> usize {
        self.data().child_count as usize
    }

    pub fn child(&self, i: u32) -> Option<Node<'t>> {
        let d = self.data();
        (i < d.child_count).then(|| self.at(d.first_child + i))
    }

    pub fn named_child_count(&self) -> usize {
        self.kids().filter(|n| n.is_named()).count()
    }

    pub fn named_child(&self, i: u32) -> Option<Node<'t>> {
        self.kids().filter(|n| n.is_named()).nth(i as usize)
    }

    /// The children, in order.
    pub(super) fn kids(&self) -> impl ExactSizeIterator<Item = Node<'t>> + 't {
        let d = *self.data();
        let tree = self.tree;
        (d.first_child..d.first_child + d.child_count).map(move |idx| Node { tree, idx })
    }

    pub fn children<'c>(
        &self,
        _cursor: &'c mut TreeCursor<'t>,
    ) -> impl ExactSizeIterator<Item = Node<'t>> + 'c
    where
        't: 'c,
    {
        self.kids()
    }

    pub fn named_children<'c>(
        &self,
        _cursor: &'c mut TreeCursor<'t>,
    ) -> impl Iterator<Item = Node<'t>> + 'c
    where
        't: 'c,
    {
        self.kids().filter(|n| n.is_named())
    }

    pub fn child_by_field_id(&self, field: u16) -> Option<Node<'t>> {
        self.kids().find(|n| n.data().field == field)
    }

    pub fn child_by_field_name(&self, name: impl AsRef<[u8]>) -> Option<Node<'t>> {
        let name = std::str::from_utf8(name.as_ref()).ok()?;
        self.child_by_field_id(kinds::field(name)?)
    }

    pub fn children_by_field_id<'c>(
        &self,
        field: std::num::NonZeroU16,
        _cursor: &'c mut TreeCursor<'t>,
    ) -> impl Iterator<Item = Node<'t>> + 'c
    where
        't: 'c,
    {
        self.kids().filter(move |n| n.data().field == field.get())
    }

    pub fn children_by_field_name<'c>(
        &self,
        name: &str,
        _cursor: &'c mut TreeCursor<'t>,
    ) -> impl Iterator<Item = Node<'t>> + 'c
    where
        't: 'c,
    {
        let field = kinds::field(name).unwrap_or(u16::MAX);
        self.kids().filter(move |n| n.data().field == field)
    }

    /// The field name of this node in its parent.
    pub fn field_name(&self) -> Option<&'static str> {
        match self.data().field {
            0 => None,
            f => Some(kinds::FIELDS[f as usize]),
        }
    }

    pub fn parent(&self) -> Option<Node<'t>> {
        (self.idx != 0).then(|| self.at(self.data().parent))
    }

    fn sibling_index(&self, step: i64) -> Option<u32> {
        let parent = self.parent()?;
        let p = parent.data();
        let i = self.idx as i64 + step;
        let first = p.first_child as i64;
        (i >= first && i < first + p.child_count as i64).then_some(i as u32)
    }

    pub fn next_sibling(&self) -> Option<Node<'t>> {
        self.sibling_index(1).map(|i| self.at(i))
    }

    pub fn prev_sibling(&self) -> Option<Node<'t>> {
        self.sibling_index(-1).map(|i| self.at(i))
    }

    pub fn next_named_sibling(&self) -> Option<Node<'t>> {
        let mut n = self.next_sibling();
        while let Some(s) = n {
            if s.is_named() {
                return Some(s);
            }
            n = s.next_sibling();
        }
        None
    }

    pub fn prev_named_sibling(&self) -> Option<Node<'t>> {
        let mut n = self.prev_sibling();
        while let Some(s) = n {
            if s.is_named() {
                return Some(s);
            }
            n = s.prev_sibling();
        }
        None
    }

    /// The node itself and every node below it.
    pub fn descendant_count(&self) -> usize {
        self.data().descendants as usize
    }

    /// The smallest node that spans `start..end` (tree-sitter's rule: a
    /// child must reach `end` and pass `start`, or touch it when empty).
    pub fn descendant_for_byte_range(&self, start: usize, end: usize) -> Option<Node<'t>> {
        if start > end {
            return None;
        }
        let mut node = *self;
        'down: loop {
            for child in node.kids() {
                let child_end = child.end_byte();
                let passes_start = if child.start_byte() == child_end {
                    child_end >= start
                } else {
                    child_end > start
                };
                if child_end < end || !passes_start {
                    continue;
                }
                if start < child.start_byte() {
                    break;
                }
                node = child;
                continue 'down;
            }
            return Some(node);
        }
    }

    /// The smallest named node that spans `start..end`.
    pub fn named_descendant_for_byte_range(&self, start: usize, end: usize) -> Option<Node<'t>> {
        let mut node = self.descendant_for_byte_range(start, end)?;
        while !node.is_named() {
            node = node.parent()?;
        }
        Some(node)
    }

    pub fn walk(&self) -> TreeCursor<'t> {
        TreeCursor {
            node: *self,
            depth: 0,
        }
    }

    /// The tree as an S-expression: named nodes, with their fields.
    pub fn to_sexp(&self) -> String {
        let mut out = String::new();
        sexp(*self, &mut out);
        out
    }
}

fn sexp(node: Node<'_>, out: &mut String) {
    if node.is_missing() {
        out.push_str("(MISSING ");
        out.push_str(node.kind());
        out.push(')');
        return;
    }
    out.push('(');
    out.push_str(node.kind());
    for child in node.kids().filter(|c| c.is_named()) {
        out.push(' ');
        if let Some(f) = child.field_name() {
            out.push_str(f);
            out.push_str(": ");
        }
        sexp(child, out);
    }
    out.push(')');
}

/// A walk over a tree, the tree-sitter cursor's moves.
#[derive(Clone)]
pub struct TreeCursor<'t> {
    node: Node<'t>,
    depth: u32,
}

impl<'t> TreeCursor<'t> {
    pub fn node(&self) -> Node<'t> {
        self.node
    }

    pub fn field_name(&self) -> Option<&'static str> {
        if self.depth == 0 {
            return None;
        }
        self.node.field_name()
    }

    /// The id of the current node's field in its parent.
    pub fn field_id(&self) -> Option<std::num::NonZeroU16> {
        if self.depth == 0 {
            return None;
        }
        std::num::NonZeroU16::new(self.node.data().field)
    }

    /// Moves to the first child that ends after `byte`; its index.
    pub fn goto_first_child_for_byte(&mut self, byte: usize) -> Option<usize> {
        let (i, child) = self
            .node
            .kids()
            .enumerate()
            .find(|(_, c)| c.end_byte() > byte)?;
        self.node = child;
        self.depth += 1;
        Some(i)
    }

    pub fn goto_first_child(&mut self) -> bool {
        match self.node.child(0) {
            Some(c) => {
                self.node = c;
                self.depth += 1;
                true
            }
            None => false,
        }
    }

    pub fn goto_next_sibling(&mut self) -> bool {
        if self.depth == 0 {
            return false;
        }
        match self.node.next_sibling() {
            Some(s) => {
                self.node = s;
                true
            }
            None => false,
        }
    }

    pub fn goto_parent(&mut self) -> bool {
        if self.depth == 0 {
            return false;
        }
        match self.node.parent() {
            Some(p) => {
                self.node = p;
                self.depth -= 1;
                true
            }
            None => false,
        }
    }

    pub fn reset(&mut self, node: Node<'t>) {
        self.node = node;
        self.depth = 0;
    }
}
