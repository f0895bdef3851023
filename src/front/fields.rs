//! Field lookups by id. `Node::child_by_field_name` looks the field's name
//! up in the grammar's table on every call; the fields the translator asks
//! for are looked up once here.

use super::c::{kinds, Node};
use std::num::NonZeroU16;
use std::sync::OnceLock;

type FieldId = NonZeroU16;

/// The fields with a cached id; any other name falls back to the grammar's
/// table.
const NAMES: [&str; 16] = [
    "declarator",
    "body",
    "initializer",
    "condition",
    "update",
    "value",
    "left",
    "right",
    "operator",
    "argument",
    "parameters",
    "size",
    "function",
    "arguments",
    "type",
    "name",
];

fn ids() -> &'static [Option<FieldId>; NAMES.len()] {
    static IDS: OnceLock<[Option<FieldId>; NAMES.len()]> = OnceLock::new();
    IDS.get_or_init(|| NAMES.map(lookup))
}

fn lookup(name: &str) -> Option<FieldId> {
    kinds::field(name).and_then(NonZeroU16::new)
}

/// The id of field `name` in the C grammar (`None`: the grammar has none).
pub fn field_id(name: &str) -> Option<FieldId> {
    match NAMES.iter().position(|n| *n == name) {
        Some(k) => ids()[k],
        None => lookup(name),
    }
}

/// `node.child_by_field_name(name)`, without the name lookup.
pub fn child<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    node.child_by_field_id(field_id(name)?.get())
}

/// `node.kind()` (a table look-up).
pub fn kind<'t>(node: Node<'t>) -> &'t str {
    node.kind()
}

/// The field lookups of [`Node`] with cached ids.
pub trait NodeFields<'t> {
    /// `child_by_field_name`.
    fn field(&self, name: &str) -> Option<Node<'t>>;
    /// `children_by_field_name`, collected.
    fn fields(&self, name: &str) -> Vec<Node<'t>>;
    /// `kind`, from a table.
    fn kind_name(&self) -> &'t str;
}

impl<'t> NodeFields<'t> for Node<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>> {
        child(*self, name)
    }

    fn fields(&self, name: &str) -> Vec<Node<'t>> {
        match field_id(name) {
            Some(id) => {
                let mut c = self.walk();
                self.children_by_field_id(id, &mut c).collect()
            }
            None => Vec::new(),
        }
    }

    fn kind_name(&self) -> &'t str {
        kind(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::parse_c;

    #[test]
    fn child_agrees_with_child_by_field_name() {
        let text = "int f(int n, double *restrict a) { for (int i = 0; i < n; i += 2) a[i] = g(i, -n); return n; }\n\
                    struct s { int x; } v = { 1 }; int b[4];\n";
        let tree = parse_c(text.to_string());
        let mut stack = vec![tree.root().expect("tree")];
        let mut found = 0;
        while let Some(node) = stack.pop() {
            let mut c = node.walk();
            stack.extend(node.children(&mut c));
            assert_eq!(node.kind_name(), node.kind());
            for name in NAMES
                .iter()
                .copied()
                .chain(["no_such_field", "alternative"])
            {
                let a = node.child_by_field_name(name);
                assert_eq!(child(node, name), a, "{name} of {}", node.kind());
                let mut c = node.walk();
                let all: Vec<_> = node.children_by_field_name(name, &mut c).collect();
                assert_eq!(node.fields(name), all, "{name} of {}", node.kind());
                if node.kind() == "parameter_declaration" && name == "declarator" {
                    // `sema::symbols` relies on it.
                    assert!(all.len() <= 1, "{all:?}");
                }
                found += a.is_some() as usize;
            }
        }
        assert!(found > 20, "{found}");
        assert!(NAMES.iter().all(|n| field_id(n).is_some()));
    }
}
