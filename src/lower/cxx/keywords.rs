//! C++ keywords used as C names (`new`, `class`, `this`).
//!
//! Host code: each such name is renamed (`new_`, from the namer) where it
//! is written, except a name with external linkage (E0501: renaming it
//! would break the link with other C files).
//!
//! A name that an offloaded region uses is renamed before lowering instead
//! ([`region_renames`], applied by the driver to the whole input): the
//! kernel's parameters, the launch's arguments and the clauses' expressions
//! are all written from the names the lowering sees, so the rename must be
//! in the text it reads. Only the spelling changes, so the host rename and
//! the kernel's agree.

use super::Edit;
use crate::diag::{codes, Diagnostic};
use crate::front::c::Node;
use crate::front::CTree;
use crate::ir::edit::FreshName;
use crate::sema::ctype::{declarator, specifiers};
use crate::sema::symbols;
use crate::source::words::CXX_ONLY_KEYWORDS;
use crate::source::Span;
use std::collections::HashMap;

/// The keyword-named identifiers met by the walk.
#[derive(Default)]
pub struct Found {
    all: Vec<(String, Span)>,
    /// The first use of each name in each offloaded region.
    in_region: Vec<(String, Span)>,
}

/// Whether `t` is a C++ keyword pragma2cuda renames (`bool`, `true` and
/// `false` are C's own through <stdbool.h>; see `super::truth`).
pub fn renamed_keyword(t: &str) -> bool {
    CXX_ONLY_KEYWORDS.contains(&t) && !matches!(t, "true" | "false" | "bool")
}

impl Found {
    /// Called for every `identifier`, `field_identifier` and `type_identifier`.
    pub fn see(&mut self, n: Node<'_>, tree: &CTree, offloaded: &[Span]) {
        let t = tree.text_of(n);
        if !renamed_keyword(t) {
            return;
        }
        let span = Span::new(n.start_byte(), n.end_byte());
        if n.kind() == "identifier" {
            if let Some(r) = offloaded.iter().find(|r| span.within(**r)) {
                if !self
                    .in_region
                    .iter()
                    .any(|(name, at)| name == t && at.within(*r))
                {
                    self.in_region.push((t.to_string(), span));
                }
            }
        }
        self.all.push((t.to_string(), span));
    }

    /// The renames (host code) and refusals, once the walk is done.
    pub fn finish(
        self,
        root: Node<'_>,
        tree: &CTree,
        namer: &mut dyn FreshName,
        edits: &mut Vec<Edit>,
        diags: &mut Vec<Diagnostic>,
    ) {
        // A region's use left here is a name `region_renames` did not rename
        // (one with external linkage, refused below, or one spelled by a macro).
        let external = external_names(root, tree);
        for (name, span) in &self.in_region {
            if external.contains_key(name) {
                continue;
            }
            diags.push(
                Diagnostic::new(
                    codes::NOT_CXX,
                    *span,
                    format!("`{name}` is a C++ keyword that pragma2cuda cannot rename in this offloaded region"),
                )
                .with_label("used in an offloaded region")
                .with_help(format!("rename `{name}` in the C source")),
            );
        }
        let mut renames: HashMap<String, String> = HashMap::new();
        for (name, span) in self.all {
            if let Some(decl) = external.get(&name) {
                if *decl == span {
                    diags.push(
                        Diagnostic::new(
                            codes::NOT_CXX,
                            span,
                            format!("`{name}` is a C++ keyword and names a symbol with external linkage"),
                        )
                        .with_label("cannot be renamed without breaking the link with other C files")
                        .with_help(format!("rename `{name}` in the C sources, or make it `static`")),
                    );
                }
                continue;
            }
            let new = renames
                .entry(name.clone())
                .or_insert_with(|| namer.fresh(&format!("{name}_")));
            edits.push(Edit::replace(span, new.clone()));
        }
    }
}

/// The top-level names with external linkage, with their declaring span.
fn external_names(root: Node<'_>, tree: &CTree) -> HashMap<String, Span> {
    let mut external: HashMap<String, Span> = HashMap::new();
    let mut c = root.walk();
    for item in root.children(&mut c) {
        let mut syms = Vec::new();
        match item.kind() {
            "declaration" => {
                symbols::declared_by(item, &tree.text, symbols::Storage::Global, &mut syms)
            }
            "function_definition" => {
                let (_, is_static, ..) = specifiers(item, &tree.text);
                if let Some((name, span, _)) = item
                    .child_by_field_name("declarator")
                    .and_then(|d| declarator(d, &tree.text))
                {
                    if !is_static {
                        external.insert(name, span);
                    }
                }
            }
            _ => {}
        }
        for s in syms {
            if !s.is_static && !s.is_typedef {
                external.insert(s.name, s.span);
            }
        }
    }
    external
}

/// The renames that make the keyword-named variables an offloaded region
/// uses ordinary names, in the whole input: every identifier so spelled (a
/// name used in a region is renamed everywhere, so the host's and the
/// kernel's spellings agree) and its uses in the clauses of `pragmas`
/// (`#pragma` lines). Empty when no region uses such a name. The new names
/// come from `namer` (the host rename's, `new_`). A file that declares its
/// own `true`, `false` or `bool` has them renamed the same way (the
/// lowering writes types and values from their names too).
pub fn region_renames(
    tree: &CTree,
    orig: &str,
    offloaded: &[Span],
    pragmas: &[Span],
    namer: &mut dyn FreshName,
) -> Vec<(Span, String)> {
    let Some(root) = tree.root() else {
        return Vec::new();
    };
    if offloaded.is_empty() || !may_rename(&tree.text, orig, pragmas) {
        return Vec::new();
    }
    let external = external_names(root, tree);
    let mut found: Vec<(String, Span)> = Vec::new();
    let mut used: Vec<String> = Vec::new();
    let mut cursor = root.walk();
    'walk: loop {
        let n = cursor.node();
        if let Some(w) = declared_truth(n, tree) {
            if !used.iter().any(|u| u == w) {
                used.push(w.to_string());
            }
        }
        let kind = crate::front::fields::kind(n);
        if n.child_count() == 0 && TRUTH.contains(&tree.text_of(n)) {
            if matches!(
                kind,
                "identifier" | "type_identifier" | "primitive_type" | "true" | "false"
            ) {
                found.push((
                    tree.text_of(n).to_string(),
                    Span::new(n.start_byte(), n.end_byte()),
                ));
            }
        } else if matches!(kind, "identifier" | "field_identifier" | "type_identifier") {
            let t = tree.text_of(n);
            if renamed_keyword(t) && !external.contains_key(t) {
                let span = Span::new(n.start_byte(), n.end_byte());
                if offloaded.iter().any(|r| span.within(*r)) && !used.iter().any(|u| u == t) {
                    used.push(t.to_string());
                }
                found.push((t.to_string(), span));
            }
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    for p in pragmas {
        let in_region = offloaded.iter().any(|r| p.within(*r));
        for (name, span) in pragma_words(orig, *p) {
            if TRUTH.contains(&name.as_str()) {
                found.push((name, span));
            } else if renamed_keyword(&name) && !external.contains_key(&name) {
                if in_region && !used.contains(&name) {
                    used.push(name.clone());
                }
                found.push((name, span));
            }
        }
    }
    if used.is_empty() || offloaded.is_empty() {
        return Vec::new();
    }
    used.sort();
    let renames: HashMap<String, String> = used
        .iter()
        .map(|u| (u.clone(), namer.fresh(&format!("{u}_"))))
        .collect();
    let mut out: Vec<(Span, String)> = found
        .into_iter()
        .filter_map(|(name, span)| renames.get(&name).map(|n| (span, n.clone())))
        .collect();
    out.sort_by_key(|(s, _)| s.start);
    out.dedup_by_key(|(s, _)| s.start);
    out
}

/// Whether [`region_renames`] can find anything: a C++ keyword (or `true`,
/// `false`, `bool`) spelled in the parsed text or in a pragma's clauses.
/// One scan of the text's words instead of a walk over the tree (most
/// files have none). Errs towards yes: every run of letters, digits and
/// `_` is a word, and a run starting with a digit (a number, or garbage
/// the parser may split) is tried from each of its letters too.
fn may_rename(text: &str, orig: &str, pragmas: &[Span]) -> bool {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if !word(b[i]) {
            i += 1;
            continue;
        }
        let s = i;
        while i < b.len() && word(b[i]) {
            i += 1;
        }
        if b[s].is_ascii_digit() {
            if (s..i).any(|k| !b[k].is_ascii_digit() && is_keyword_word(&text[k..i])) {
                return true;
            }
        } else if is_keyword_word(&text[s..i]) {
            return true;
        }
    }
    pragmas.iter().any(|p| {
        pragma_words(orig, *p)
            .iter()
            .any(|(w, _)| is_keyword_word(w))
    })
}

/// Whether `w` is one of [`CXX_ONLY_KEYWORDS`] (`true`, `false`, `bool`
/// included), by binary search on a sorted copy.
fn is_keyword_word(w: &str) -> bool {
    static SORTED: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    if !(2..=16).contains(&w.len()) {
        return false;
    }
    let sorted = SORTED.get_or_init(|| {
        let mut v = CXX_ONLY_KEYWORDS.to_vec();
        v.sort_unstable();
        v
    });
    sorted.binary_search(&w).is_ok()
}

/// C++ keywords C spells through <stdbool.h>: renamed only in a file that
/// declares them itself (an enumerator, a typedef, a variable).
const TRUTH: [&str; 3] = ["true", "false", "bool"];

/// The word of [`TRUTH`] that `n` declares, if any.
fn declared_truth(n: Node<'_>, tree: &CTree) -> Option<&'static str> {
    let name = match n.kind() {
        "enumerator" => n.child_by_field_name("name"),
        "type_definition" | "declaration" | "parameter_declaration" => {
            let mut c = n.walk();
            let ds: Vec<Node<'_>> = n.children_by_field_name("declarator", &mut c).collect();
            return ds.into_iter().find_map(|d| {
                let t = match d.kind() {
                    "primitive_type" | "identifier" | "type_identifier" => tree.text_of(d),
                    _ => crate::sema::ctype::declarator_name(d, &tree.text)?,
                };
                TRUTH.iter().copied().find(|w| *w == t)
            });
        }
        _ => None,
    }?;
    let t = tree.text_of(name);
    TRUTH.iter().copied().find(|w| *w == t)
}

/// The identifiers in the clause arguments of the pragma at `span` (inside
/// parentheses), without the ones that are clause keywords there:
/// `default(private)` and the map type `delete:`.
fn pragma_words(orig: &str, span: Span) -> Vec<(String, Span)> {
    let b = orig.as_bytes();
    let end = span.end.min(b.len());
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut clause = String::new();
    let mut last_word = String::new();
    let mut i = span.start.min(end);
    while i < end {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < end && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let w = &orig[s..i];
            if depth > 0 {
                let next = orig[i..end].trim_start();
                let keyword = (clause == "default" && depth == 1)
                    || (clause == "map" && depth == 1 && w == "delete" && next.starts_with(':'));
                if !keyword {
                    out.push((w.to_string(), Span::new(s, i)));
                }
            }
            last_word = w.to_string();
            continue;
        }
        match c {
            b'(' => {
                if depth == 0 {
                    clause = std::mem::take(&mut last_word);
                }
                depth += 1;
            }
            b')' => depth = depth.saturating_sub(1),
            b'"' | b'\'' => {
                // A string in a clause (`acc routine("name")`): skip it.
                i += 1;
                while i < end && b[i] != c {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = orig[i + 2..end].find("*/").map_or(end, |k| i + 2 + k + 1);
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn may_rename_finds_keywords_in_code_and_clauses() {
        let none = "int f(int newer, int this_) { return 0x1f + newer; }";
        assert!(!may_rename(none, none, &[]));
        assert!(may_rename("int new = 1;", "", &[]));
        assert!(may_rename("typedef int bool;", "", &[]));
        assert!(may_rename("x = 1new;", "", &[]));
        let p = "#pragma omp target map(to: class)";
        assert!(may_rename("", p, &[Span::new(0, p.len())]));
        let d = "#pragma omp target map(delete: a) default(private)";
        assert!(!may_rename("", d, &[Span::new(0, d.len())]));
    }

    #[test]
    fn pragma_words_skip_clause_keywords() {
        let t = "#pragma omp target map(delete: new) map(to: a[0:new], this) default(private) private(class)";
        let words: Vec<String> = pragma_words(t, Span::new(0, t.len()))
            .into_iter()
            .map(|(w, _)| w)
            .collect();
        assert_eq!(words, ["new", "to", "a", "new", "this", "class"]);
    }
}
