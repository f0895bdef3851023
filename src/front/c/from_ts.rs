//! A tree-sitter-c tree copied into this crate's arena: the fallback where
//! the own parser finds a syntax error. Around an error the two parsers
//! recover differently, and the stages after the parse (which report the
//! error and skip what it touches) were written against tree-sitter's
//! recovery; a file without errors never gets here.

use super::kinds::{self, KINDS, NAMED_KINDS};
use super::tree::{NodeData, Tree, HAS_ERROR, MISSING};
use std::sync::OnceLock;

/// tree-sitter-c's kind and field ids mapped to this crate's.
struct Ids {
    kinds: Vec<u16>,
    fields: Vec<u16>,
}

fn ids() -> &'static Ids {
    static IDS: OnceLock<Ids> = OnceLock::new();
    IDS.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
        let kinds = (0..lang.node_kind_count() as u16)
            .map(|id| {
                let name = lang.node_kind_for_id(id).unwrap_or("");
                let named = lang.node_kind_is_named(id);
                our_kind(name, named)
            })
            .collect();
        let fields = (0..=lang.field_count() as u16)
            .map(|id| {
                lang.field_name_for_id(id)
                    .and_then(kinds::field)
                    .unwrap_or(0)
            })
            .collect();
        Ids { kinds, fields }
    })
}

/// The id of kind `name` (a named kind or an anonymous token).
fn our_kind(name: &str, named: bool) -> u16 {
    let (from, to) = if named {
        (0, NAMED_KINDS as usize)
    } else {
        (NAMED_KINDS as usize, KINDS.len())
    };
    (from..to)
        .find(|&i| KINDS[i] == name)
        .map_or(kinds::ERROR, |i| i as u16)
}

/// tree-sitter's parse of `src` in the arena, or `None` when it gives none.
pub fn parse(src: &[u8]) -> Option<Tree> {
    let mut parser = tree_sitter::Parser::new();
    let lang: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
    parser.set_language(&lang).ok()?;
    let ts = parser.parse(src, None)?;
    Some(copy(&ts, src))
}

/// The nodes of `ts` breadth first, as [`super::build`] lays them out.
fn copy(ts: &tree_sitter::Tree, src: &[u8]) -> Tree {
    let ids = ids();
    let mut order: Vec<(tree_sitter::Node<'_>, u16)> = vec![(ts.root_node(), 0)];
    let mut nodes: Vec<NodeData> = Vec::new();
    let mut parents: Vec<u32> = vec![0];
    let mut next = 0;
    while next < order.len() {
        let (node, field) = order[next];
        let first_child = order.len() as u32;
        let mut cursor = node.walk();
        if cursor.goto_first_child() {
            loop {
                let f = cursor.field_id().map_or(0, |f| f.get());
                let f = ids.fields.get(f as usize).copied().unwrap_or(0);
                order.push((cursor.node(), f));
                parents.push(next as u32);
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        let kind = ids
            .kinds
            .get(node.kind_id() as usize)
            .copied()
            .unwrap_or(kinds::ERROR);
        let mut flags = 0;
        if node.is_missing() {
            flags |= MISSING;
        }
        if node.has_error() {
            flags |= HAS_ERROR;
        }
        nodes.push(NodeData {
            kind,
            field,
            flags,
            start: node.start_byte() as u32,
            end: node.end_byte() as u32,
            parent: parents[next],
            first_child,
            child_count: order.len() as u32 - first_child,
            descendants: 1,
        });
        next += 1;
    }
    for i in (1..nodes.len()).rev() {
        let (p, d) = (nodes[i].parent as usize, nodes[i].descendants);
        nodes[p].descendants += d;
    }
    Tree {
        nodes,
        line_starts: super::build::line_starts(src),
        too_deep_at: None,
    }
}
