//! Parsing C: the front end's own parser ([`super::c`]), whose tree is
//! tree-sitter-c's; where it finds a syntax error, tree-sitter-c's tree
//! (its error recovery) in the same arena.

use super::c::{self, Node, Tree};

/// The tree of the masked text. Spans are identical to the original text's.
pub struct CTree {
    pub tree: Option<Tree>,
    pub text: String,
}

/// Parses `masked` (the input with offload pragmas blanked out).
pub fn parse_c(masked: String) -> CTree {
    let masked = directive_blanks_last(masked);
    let mut tree = c::parse(&masked);
    if tree.root_node().has_error() {
        if let Some(ts) = c::parse_recovering(&masked) {
            tree = ts;
        }
    }
    CTree {
        tree: Some(tree),
        text: masked,
    }
}

impl CTree {
    pub fn root(&self) -> Option<Node<'_>> {
        self.tree.as_ref().map(|t| t.root_node())
    }

    pub fn text_of(&self, n: Node<'_>) -> &str {
        self.text.get(n.start_byte()..n.end_byte()).unwrap_or("")
    }
}

/// tree-sitter-c reads `#define NAME` followed by blanks before the newline
/// as taking its value from the next non-blank line (a prototype after a
/// header's include guard was then split by an inserted `extern "C"`). The
/// blanks at the end of a directive line are moved after its newline: every
/// token keeps its offset.
pub fn directive_blanks_last(mut text: String) -> String {
    let mut swaps: Vec<(usize, usize)> = Vec::new();
    let b = text.as_bytes();
    let mut line = 0;
    while line < b.len() {
        let end = b[line..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |k| line + k);
        let first = b[line..end].iter().position(|c| !matches!(c, b' ' | b'\t'));
        if end < b.len() && first.is_some_and(|f| b[line + f] == b'#') {
            let mut blank = end;
            while blank > line && matches!(b[blank - 1], b' ' | b'\t') {
                blank -= 1;
            }
            if blank < end && (blank == line || b[blank - 1] != b'\\') {
                swaps.push((blank, end));
            }
        }
        line = end + 1;
    }
    if swaps.is_empty() {
        return text;
    }
    let mut bytes = std::mem::take(&mut text).into_bytes();
    for (blank, end) in swaps {
        bytes[blank..=end].rotate_right(1);
    }
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn define_with_trailing_blanks_ends_at_its_line() {
        let src = "#define H_H \t\n\nint twice(int a,\n    int b);\n";
        let t = parse_c(src.to_string());
        let root = t.root().unwrap();
        let kinds: Vec<&str> = (0..root.named_child_count())
            .map(|i| root.named_child(i as u32).unwrap().kind())
            .collect();
        assert_eq!(kinds, ["preproc_def", "declaration"]);
        assert_eq!(
            root.named_child(1).unwrap().start_byte(),
            src.find("int twice").unwrap()
        );
    }
}
