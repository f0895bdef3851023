//! Parsing C with tree-sitter-c.

use tree_sitter::{Node, Parser, Tree};

/// The tree of the masked text. Spans are identical to the original text's.
pub struct CTree {
    pub tree: Option<Tree>,
    pub text: String,
}

/// Parses `masked` (the input with offload pragmas blanked out).
pub fn parse_c(masked: String) -> CTree {
    let mut parser = Parser::new();
    let lang: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
    if parser.set_language(&lang).is_err() {
        return CTree {
            tree: None,
            text: masked,
        };
    }
    let tree = parser.parse(masked.as_bytes(), None);
    CTree { tree, text: masked }
}

impl CTree {
    pub fn root(&self) -> Option<Node<'_>> {
        self.tree.as_ref().map(|t| t.root_node())
    }

    pub fn text_of(&self, n: Node<'_>) -> &str {
        self.text.get(n.start_byte()..n.end_byte()).unwrap_or("")
    }
}
