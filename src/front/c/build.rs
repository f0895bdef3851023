//! Building the tree while parsing: finished nodes wait on a stack; a node
//! is made of the stack above a mark. Comments on the edges of a node's
//! children stay outside it (tree-sitter puts an extra in the innermost node
//! that has children on both sides of it). At the end the nodes are laid out
//! breadth first ([`super::tree`]).

use super::kinds;
use super::tree::{NodeData, Tree, HAS_ERROR, MISSING};

#[derive(Clone, Copy)]
struct Raw {
    kind: u16,
    field: u16,
    flags: u8,
    start: u32,
    end: u32,
    kids_at: u32,
    kids_len: u32,
}

#[derive(Default)]
pub(super) struct Builder {
    raws: Vec<Raw>,
    kids: Vec<u32>,
    stack: Vec<u32>,
}

/// Nodes taken off to be put back.
pub(super) struct Kept {
    raws: Vec<Raw>,
    kids: Vec<u32>,
    stack: Vec<u32>,
}

/// A point to come back to when a guess fails.
#[derive(Clone, Copy)]
pub(super) struct Saved {
    raws: usize,
    kids: usize,
    stack: usize,
}

impl Builder {
    pub fn with_capacity(n: usize) -> Builder {
        Builder {
            raws: Vec::with_capacity(n),
            kids: Vec::with_capacity(n),
            stack: Vec::with_capacity(64),
        }
    }

    pub fn save(&self) -> Saved {
        Saved {
            raws: self.raws.len(),
            kids: self.kids.len(),
            stack: self.stack.len(),
        }
    }

    pub fn restore(&mut self, s: Saved) {
        self.raws.truncate(s.raws);
        self.kids.truncate(s.kids);
        self.stack.truncate(s.stack);
    }

    /// The nodes made since `s`, to put back after trying another reading.
    pub fn take_since(&self, s: Saved) -> Kept {
        Kept {
            raws: self.raws[s.raws..].to_vec(),
            kids: self.kids[s.kids..].to_vec(),
            stack: self.stack[s.stack..].to_vec(),
        }
    }

    /// Puts back what [`Builder::take_since`] took, after restoring to the
    /// same point.
    pub fn put_back(&mut self, k: Kept) {
        self.raws.extend(k.raws);
        self.kids.extend(k.kids);
        self.stack.extend(k.stack);
    }

    /// tree-sitter's dynamic precedence of the nodes made since `s`.
    pub fn dyn_prec(&self, s: Saved) -> i32 {
        self.raws[s.raws.min(self.raws.len())..]
            .iter()
            .map(|r| match r.kind {
                kinds::POINTER_DECLARATOR | kinds::ABSTRACT_POINTER_DECLARATOR => 1,
                kinds::PARENTHESIZED_DECLARATOR => -10,
                kinds::MACRO_TYPE_SPECIFIER => -1,
                _ => 0,
            })
            .sum()
    }

    pub fn leaf(&mut self, kind: u16, start: u32, end: u32) {
        self.leaf_flags(kind, start, end, 0);
    }

    /// A zero-width token tree-sitter would insert as missing.
    pub fn missing(&mut self, kind: u16, at: u32) {
        self.leaf_flags(kind, at, at, MISSING | HAS_ERROR);
    }

    fn leaf_flags(&mut self, kind: u16, start: u32, end: u32, flags: u8) {
        let flags = flags | if kind == kinds::ERROR { HAS_ERROR } else { 0 };
        self.raws.push(Raw {
            kind,
            field: 0,
            flags,
            start,
            end,
            kids_at: 0,
            kids_len: 0,
        });
        self.stack.push(self.raws.len() as u32 - 1);
    }

    pub fn mark(&self) -> usize {
        self.stack.len()
    }

    /// How many nodes are above `mark`, comments apart.
    pub fn since(&self, mark: usize) -> usize {
        self.stack[mark.min(self.stack.len())..]
            .iter()
            .filter(|&&i| self.raws[i as usize].kind != kinds::COMMENT)
            .count()
    }

    /// The kind of the last node made, if it is above `mark`.
    pub fn last_kind(&self, mark: usize) -> Option<u16> {
        (self.stack.len() > mark).then(|| self.raws[*self.stack.last().unwrap_or(&0) as usize].kind)
    }

    /// Names the last non-comment node above `mark` as field `field`.
    pub fn field(&mut self, field: u16) {
        for &i in self.stack.iter().rev() {
            let r = &mut self.raws[i as usize];
            if r.kind != kinds::COMMENT {
                r.field = field;
                return;
            }
        }
    }

    /// Moves the end of the last non-comment node to `end` (a hidden token
    /// it ends with).
    pub fn extend_last(&mut self, end: u32) {
        for &i in self.stack.iter().rev() {
            let r = &mut self.raws[i as usize];
            if r.kind != kinds::COMMENT {
                r.end = end;
                return;
            }
        }
    }

    /// Changes the kind of the last non-comment node.
    pub fn rekind(&mut self, kind: u16) {
        for &i in self.stack.iter().rev() {
            let r = &mut self.raws[i as usize];
            if r.kind != kinds::COMMENT {
                r.kind = kind;
                return;
            }
        }
    }

    /// Makes a node of kind `kind` of everything above `mark`.
    pub fn finish(&mut self, mark: usize, kind: u16) {
        self.finish_to(mark, kind, None);
    }

    /// [`Builder::finish`] for a node that ends with a hidden token ending
    /// at `end`: the comments before that token are inside the node.
    pub fn finish_to(&mut self, mark: usize, kind: u16, end_at: Option<u32>) {
        let mark = mark.min(self.stack.len());
        let is_comment = |b: &Builder, i: &u32| b.raws[*i as usize].kind == kinds::COMMENT;
        let all = &self.stack[mark..];
        let lead = all.iter().take_while(|i| is_comment(self, i)).count();
        let trail = if lead == all.len() || end_at.is_some() {
            0
        } else {
            all.iter().rev().take_while(|i| is_comment(self, i)).count()
        };
        let body = mark + lead..self.stack.len() - trail;
        let kids_at = self.kids.len() as u32;
        let mut flags = if kind == kinds::ERROR { HAS_ERROR } else { 0 };
        let (mut start, mut end) = (u32::MAX, 0);
        for &i in &self.stack[body.clone()] {
            let r = &self.raws[i as usize];
            flags |= r.flags & HAS_ERROR;
            start = start.min(r.start);
            end = end.max(r.end);
            self.kids.push(i);
        }
        if let Some(e) = end_at {
            end = end.max(e);
        }
        if body.is_empty() {
            let at = self.stack[..mark]
                .last()
                .map_or(0, |&i| self.raws[i as usize].end);
            (start, end) = (at, at);
        }
        self.raws.push(Raw {
            kind,
            field: 0,
            flags,
            start,
            end,
            kids_at,
            kids_len: body.len() as u32,
        });
        let node = self.raws.len() as u32 - 1;
        let tail: Vec<u32> = self.stack[self.stack.len() - trail..].to_vec();
        self.stack.truncate(mark + lead);
        self.stack.push(node);
        self.stack.extend(tail);
    }

    /// The tree: `root_kind` over everything on the stack, spanning
    /// `0..len`.
    pub fn into_tree(mut self, root_kind: u16, src: &[u8], too_deep_at: Option<usize>) -> Tree {
        // Every node made but not in the tree (a failed guess) was dropped by
        // `restore`, so all raws are reachable from the root.
        let mark = 0;
        let children: Vec<u32> = self.stack[mark..].to_vec();
        let kids_at = self.kids.len() as u32;
        let mut flags = 0;
        for &i in &children {
            flags |= self.raws[i as usize].flags & HAS_ERROR;
            self.kids.push(i);
        }
        // tree-sitter's root starts at its first token (comments count).
        let start = children
            .first()
            .map_or(src.len() as u32, |&i| self.raws[i as usize].start);
        self.raws.push(Raw {
            kind: root_kind,
            field: 0,
            flags,
            start,
            end: src.len() as u32,
            kids_at,
            kids_len: children.len() as u32,
        });
        let nodes = layout(&self.raws, &self.kids);
        Tree {
            nodes,
            line_starts: line_starts(src),
            too_deep_at,
        }
    }
}

/// Where each line of `src` starts.
pub(super) fn line_starts(src: &[u8]) -> Vec<u32> {
    let mut starts = vec![0u32];
    starts.extend(
        src.iter()
            .enumerate()
            .filter(|(_, &c)| c == b'\n')
            .map(|(i, _)| i as u32 + 1),
    );
    starts
}

/// The nodes breadth first from the last raw (the root), with parents,
/// contiguous children and descendant counts.
fn layout(raws: &[Raw], kids: &[u32]) -> Vec<NodeData> {
    let mut desc = vec![1u32; raws.len()];
    for (i, r) in raws.iter().enumerate() {
        let at = r.kids_at as usize;
        let sum: u32 = kids[at..at + r.kids_len as usize]
            .iter()
            .map(|&k| desc[k as usize])
            .sum();
        desc[i] += sum;
    }
    let root = raws.len() - 1;
    let mut order: Vec<u32> = Vec::with_capacity(raws.len());
    order.push(root as u32);
    let mut nodes: Vec<NodeData> = Vec::with_capacity(raws.len());
    let mut parents: Vec<u32> = vec![0];
    let mut next = 0;
    while next < order.len() {
        let r = raws[order[next] as usize];
        let first_child = order.len() as u32;
        let at = r.kids_at as usize;
        for &k in &kids[at..at + r.kids_len as usize] {
            order.push(k);
            parents.push(next as u32);
        }
        nodes.push(NodeData {
            kind: r.kind,
            field: r.field,
            flags: r.flags,
            start: r.start,
            end: r.end,
            parent: parents[next],
            first_child,
            child_count: r.kids_len,
            descendants: desc[order[next] as usize],
        });
        next += 1;
    }
    nodes
}
