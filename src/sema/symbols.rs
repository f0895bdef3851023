//! The declarations visible at a point of the file.
//!
//! C requires a declaration before use, so the symbols visible at a region
//! are the file-scope declarations before its function, the function's
//! parameters, and the local declarations of every enclosing block that
//! precede the region; inner ones shadow outer ones.

use super::ctype::{declarator, specifiers_and_declarators, CType};
use crate::front::c::Node;
use crate::front::fields::NodeFields;
use crate::ir::c::Deriv;
use crate::source::Span;
use std::cell::OnceCell;
use std::collections::HashMap;

pub use super::visible::{Scope, ScopeCache};
pub use crate::ir::c::{Storage, Symbol};

/// Adds the names declared by `decl` (a `declaration`, `parameter_declaration`
/// or `type_definition`) to `out`.
pub fn declared_by(decl: Node<'_>, text: &str, storage: Storage, out: &mut Vec<Symbol>) {
    if is_part_assignment(decl, text) {
        return;
    }
    let mut decls = Vec::new();
    let (base, is_static, is_extern, is_typedef) =
        specifiers_and_declarators(decl, text, Some(&mut decls));
    // Set once the first declarator turned out to be `_Complex`: the
    // specifier then applies to every declarator of the declaration.
    let mut complex = false;
    for d in decls {
        if let Some((name, span, derivs)) = declarator(d, text) {
            // tree-sitter-c does not know C99 `_Complex`: `float _Complex z`
            // reads as a declarator `_Complex` followed by an ERROR holding `z`.
            let (name, span, base) = match complex_declarator(&name, d, decl, text) {
                Some((real, real_span)) => {
                    complex = true;
                    (real, real_span, format!("{base} _Complex"))
                }
                None if complex => (name, span, format!("{base} _Complex")),
                None => {
                    // `float _Complex *p` reads as a declarator that starts
                    // at `_Complex`: the keyword is in the text before the name.
                    let head = text.get(decl.start_byte()..span.start).unwrap_or("");
                    let base_has = base.split_whitespace().any(|w| w == "_Complex");
                    if !base_has && crate::source::mask::mentions_word(head, "_Complex") {
                        complex = true;
                        (name, span, format!("{base} _Complex"))
                    } else {
                        (name, span, base.clone())
                    }
                }
            };
            let ty = CType { base, derivs };
            // An array parameter is a pointer; its declared bound is kept.
            let param_bound = match ty.derivs.first() {
                Some(Deriv::Array(bound)) if storage == Storage::Param => Some(bound.clone()),
                _ => None,
            };
            let ty = if storage == Storage::Param {
                ty.decayed()
            } else {
                ty
            };
            out.push(Symbol {
                name,
                ty,
                storage,
                is_static,
                is_extern,
                is_typedef,
                span,
                decl_span: Span::new(decl.start_byte(), decl.end_byte()),
                param_bound,
            });
        }
    }
}

/// `__real__ z = x;` / `__imag__ z = y;` (GNU C's part assignments, which
/// complex code uses): tree-sitter-c reads them as declarations of `z`
/// with type `__real__`; they declare nothing.
pub fn is_part_assignment(decl: Node<'_>, text: &str) -> bool {
    let t = text
        .get(decl.start_byte()..decl.end_byte())
        .unwrap_or("")
        .trim_start();
    ["__real__", "__imag__"].iter().any(|k| {
        t.strip_prefix(k)
            .is_some_and(|r| r.starts_with(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
    })
}

/// The real name and span behind a declarator that tree-sitter-c read as
/// `_Complex` (the C99 keyword it does not know): the identifier in the
/// ERROR node right after it, inside the init declarator or beside it.
fn complex_declarator(
    name: &str,
    d: Node<'_>,
    decl: Node<'_>,
    text: &str,
) -> Option<(String, Span)> {
    if name != "_Complex" {
        return None;
    }
    let error_ident = |n: Node<'_>| -> Option<(String, Span)> {
        if n.kind() != "ERROR" {
            return None;
        }
        let id = n.named_child(0).filter(|c| c.kind() == "identifier")?;
        Some((
            text.get(id.start_byte()..id.end_byte())?.to_string(),
            Span::new(id.start_byte(), id.end_byte()),
        ))
    };
    let mut c = d.walk();
    let inside = d.children(&mut c).find_map(error_ident);
    inside.or_else(|| {
        let mut c = decl.walk();
        let found = decl
            .children(&mut c)
            .skip_while(|n| n.id() != d.id())
            .skip(1)
            .take_while(|n| n.kind() == "ERROR")
            .find_map(error_ident);
        found
    })
}

/// Every symbol visible just before `at` (a node inside a function body).
/// The file scope is read from an index (`sema::visible`), built once per
/// tree under a [`super::visible::ScopeCache`].
pub fn visible_at(root: Node<'_>, text: &str, at: Node<'_>) -> Scope {
    let mut map = HashMap::new();
    let add = |syms: Vec<Symbol>, map: &mut HashMap<String, Symbol>| {
        for s in syms {
            map.insert(s.name.clone(), s);
        }
    };
    // Ancestors from the outside in; the outermost below the root is the
    // enclosing top-level item, before which the file scope is read.
    let mut chain = Vec::new();
    let mut n = at;
    while let Some(p) = n.parent() {
        chain.push((p, n));
        n = p;
    }
    chain.reverse();
    let top = chain
        .iter()
        .find(|(p, _)| p.id() == root.id())
        .map_or(at, |(_, child)| *child);
    let globals = super::visible::global_index(root, text, top.start_byte());
    for (parent, child) in chain {
        let mut syms = Vec::new();
        match parent.kind_name() {
            "function_definition" => {
                if let Some(decl) = parent.field("declarator") {
                    params_of(decl, text, &mut syms);
                }
            }
            "compound_statement" | "translation_unit" if parent.id() != root.id() => {
                let mut c = parent.walk();
                for item in parent.children(&mut c) {
                    if item.start_byte() >= child.start_byte() {
                        break;
                    }
                    if matches!(item.kind_name(), "declaration" | "type_definition") {
                        declared_by(item, text, Storage::Local, &mut syms);
                    }
                }
            }
            "for_statement" => {
                if let Some(init) = parent.field("initializer") {
                    if init.kind_name() == "declaration" && init.id() != child.id() {
                        declared_by(init, text, Storage::Local, &mut syms);
                    }
                }
            }
            _ => {}
        }
        add(syms, &mut map);
    }
    Scope::new(map, globals, top.start_byte())
}

/// Every symbol visible at byte `pos`, a point between statements or
/// top-level items (where a stand-alone pragma sits).
pub fn visible_before(root: Node<'_>, text: &str, pos: usize) -> Scope {
    // The innermost block that contains `pos`, or the file.
    let mut n = root.descendant_for_byte_range(pos, pos).unwrap_or(root);
    while n.id() != root.id()
        && !(n.kind() == "compound_statement" && n.start_byte() < pos && pos < n.end_byte())
    {
        match n.parent() {
            Some(p) => n = p,
            None => break,
        }
    }
    let at_file = n.id() == root.id();
    let mut map = if at_file {
        Scope::from(HashMap::new())
    } else {
        visible_at(root, text, n)
    };
    let mut c = n.walk();
    for item in n.children(&mut c) {
        if item.end_byte() > pos {
            break;
        }
        let mut syms = Vec::new();
        if at_file {
            collect_file_scope(item, text, &mut syms);
        } else if matches!(item.kind(), "declaration" | "type_definition") {
            declared_by(item, text, Storage::Local, &mut syms);
        }
        for s in syms {
            map.insert(s);
        }
    }
    map
}

/// The file-scope declarations of a tree, indexed once so that many
/// lookups (one set per directive) cost a binary search each instead of a
/// walk over the file. Gives the answers of [`visible_at`].
pub struct FileScope<'t> {
    /// Top-level items, in order.
    tops: Vec<Node<'t>>,
    text: &'t str,
    /// Each name's file-scope declarations: (start of their top-level item,
    /// symbol), in order; read on the first lookup that no local declaration
    /// answers.
    by_name: OnceCell<HashMap<String, Vec<(usize, Symbol)>>>,
}

impl<'t> FileScope<'t> {
    pub fn new(root: Node<'t>, text: &'t str) -> Self {
        let mut c = root.walk();
        let tops: Vec<Node<'t>> = root.children(&mut c).collect();
        FileScope {
            tops,
            text,
            by_name: OnceCell::new(),
        }
    }

    fn by_name(&self) -> &HashMap<String, Vec<(usize, Symbol)>> {
        self.by_name.get_or_init(|| {
            let mut by_name: HashMap<String, Vec<(usize, Symbol)>> = HashMap::new();
            for item in &self.tops {
                let mut syms = Vec::new();
                collect_file_scope(*item, self.text, &mut syms);
                for s in syms {
                    by_name
                        .entry(s.name.clone())
                        .or_default()
                        .push((item.start_byte(), s));
                }
            }
            by_name
        })
    }

    /// The outermost node spanning exactly `start..end`, found walking down
    /// from its top-level item (no `Node::parent`, which restarts from the root).
    pub fn node_at(&self, start: usize, end: usize) -> Option<Node<'t>> {
        let k = self.tops.partition_point(|n| n.start_byte() <= start);
        let top = *self.tops.get(k.checked_sub(1)?)?;
        if start >= end {
            return node_at_by_children(top, start, end);
        }
        // The child on the way is the first that ends after `start` (children
        // do not overlap, and one that ends at `start` cannot hold a nonempty
        // span): the cursor finds it without stepping through the children
        // before it.
        let mut c = top.walk();
        loop {
            let node = c.node();
            if node.start_byte() == start && node.end_byte() == end {
                return Some(node);
            }
            c.goto_first_child_for_byte(start)?;
            let child = c.node();
            if !(child.start_byte() <= start && end <= child.end_byte()) {
                return None;
            }
        }
    }

    /// The local declarations visible at `start..end`: a statement's span,
    /// or an empty span for a point between statements (such as a masked
    /// pragma). Look names up with [`FileScope::visible`].
    pub fn locals(&self, text: &'t str, start: usize, end: usize) -> Locals<'t> {
        let k = self.tops.partition_point(|n| n.start_byte() <= start);
        let top = k
            .checked_sub(1)
            .and_then(|k| self.tops.get(k))
            .filter(|n| start < n.end_byte());
        match top {
            Some(top) => {
                let (units, stmt) = local_units(*top, text, start, end);
                Locals {
                    before: top.start_byte(),
                    units,
                    text,
                    stmt,
                }
            }
            None => Locals {
                before: start,
                units: Vec::new(),
                text,
                stmt: None,
            },
        }
    }

    /// Everything visible where `locals` were taken.
    pub fn visible<'f>(&'f self, locals: &'f Locals<'t>) -> Visible<'f, 't> {
        Visible { file: self, locals }
    }
}

/// The outermost node under `node` spanning exactly `start..end`, walking
/// down through the first child that contains the span at each level.
fn node_at_by_children(mut node: Node<'_>, start: usize, end: usize) -> Option<Node<'_>> {
    loop {
        if node.start_byte() == start && node.end_byte() == end {
            return Some(node);
        }
        let mut c = node.walk();
        let child = node
            .children(&mut c)
            .find(|ch| ch.start_byte() <= start && end <= ch.end_byte())?;
        node = child;
    }
}

/// The local declarations visible at one place, and where the file scope
/// visible there ends (the start of the enclosing top-level item).
///
/// The declarations are kept as nodes, in the order [`local_units`] meets them
/// (a later one shadows an earlier one of the same name); a declaration's
/// symbols (its type: specifiers and declarators) are read only when a name
/// it declares is looked up, and its names only when a later declaration
/// does not answer. A rule looks up a few names per directive.
pub struct Locals<'t> {
    before: usize,
    units: Vec<Unit<'t>>,
    text: &'t str,
    /// The outermost node spanning exactly the statement the locals were
    /// taken at (what [`FileScope::node_at`] gives), met on the way down.
    stmt: Option<Node<'t>>,
}

/// Declarations of one place, read when first needed.
enum Unit<'t> {
    /// Symbols read at once (file-scope items of an enclosing `#if` group).
    Read(Vec<Symbol>),
    /// A function's parameters (the `parameter_declaration`s of `list`):
    /// a lookup goes straight to the parameter whose text holds the name
    /// (the list's child at that byte) instead of through every parameter.
    /// `slots[k]`: child `k` as a declaration unit, made on first use.
    Params {
        list: Node<'t>,
        slots: Vec<OnceCell<Option<Unit<'t>>>>,
    },
    /// A declaration: its names, then its symbols, read on demand.
    Decl {
        node: Node<'t>,
        storage: Storage,
        names: OnceCell<Vec<(&'t str, bool)>>,
        symbols: OnceCell<Vec<Symbol>>,
    },
}

impl<'t> Unit<'t> {
    fn decl(node: Node<'t>, storage: Storage) -> Self {
        Unit::Decl {
            node,
            storage,
            names: OnceCell::new(),
            symbols: OnceCell::new(),
        }
    }

    /// The names this declaration unit declares (what `declared_by` gives,
    /// without the types), each with whether its declarator declares a
    /// function; `None` when the declaration's text does not hold `name` as a
    /// word (no tree walk then: a declared name is an identifier of the
    /// declaration's text).
    fn names_for<'s>(
        node: Node<'t>,
        names: &'s OnceCell<Vec<(&'t str, bool)>>,
        name: &str,
        text: &'t str,
    ) -> Option<&'s [(&'t str, bool)]> {
        let decl_text = text.get(node.start_byte()..node.end_byte())?;
        if !contains_word(decl_text, name) {
            return None;
        }
        let names = names.get_or_init(|| {
            // A parameter has at most one declarator (the grammar's
            // `parameter_declaration`): no walk over its children.
            let decls = if is_part_assignment(node, text) {
                Vec::new()
            } else if node.kind_name() == "parameter_declaration" {
                node.field("declarator").into_iter().collect()
            } else {
                node.fields("declarator")
            };
            decls
                .into_iter()
                .filter_map(|d| {
                    let (n, function) = declarator_name_and_function(d, text)?;
                    // `float _Complex z` (see `complex_declarator`).
                    let n = match complex_declarator(n, d, node, text) {
                        Some((_, sp)) => text.get(sp.start..sp.end)?,
                        None => n,
                    };
                    Some((n, function))
                })
                .collect()
        });
        Some(names)
    }

    /// The first answer of `f` for the parameters of `list` whose text
    /// holds `name` as a word, last first (as declaration units).
    fn params_find<'s, R>(
        list: Node<'t>,
        slots: &'s [OnceCell<Option<Unit<'t>>>],
        name: &str,
        text: &'t str,
        mut f: impl FnMut(&'s Unit<'t>) -> Option<R>,
    ) -> Option<R> {
        let base = list.start_byte();
        let list_text = text.get(base..list.end_byte()).unwrap_or("");
        let mut before = list_text.len();
        while let Some(at) = rfind_word(list_text, name, before) {
            before = at;
            let mut c = list.walk();
            let Some(k) = c.goto_first_child_for_byte(base + at) else {
                continue;
            };
            let Some(slot) = slots.get(k) else {
                continue;
            };
            let unit = slot.get_or_init(|| {
                let p = c.node();
                (p.kind_name() == "parameter_declaration").then(|| Unit::decl(p, Storage::Param))
            });
            if let Some(r) = unit.as_ref().and_then(&mut f) {
                return Some(r);
            }
        }
        None
    }

    /// The last symbol named `name` this unit declares.
    fn get(&self, name: &str, text: &'t str) -> Option<&Symbol> {
        let symbols = match self {
            Unit::Read(symbols) => symbols,
            Unit::Params { list, slots } => {
                return Self::params_find(*list, slots, name, text, |u| u.get(name, text));
            }
            Unit::Decl {
                node,
                storage,
                names,
                symbols,
            } => {
                let names = Self::names_for(*node, names, name, text)?;
                if !names.iter().any(|(n, _)| *n == name) {
                    return None;
                }
                symbols.get_or_init(|| {
                    let mut out = Vec::new();
                    declared_by(*node, text, *storage, &mut out);
                    out
                })
            }
        };
        symbols.iter().rev().find(|s| s.name == name)
    }

    /// What [`Unit::get`] finds, as a [`Class`], without reading the type.
    fn class(&self, name: &str, text: &'t str) -> Option<Class> {
        match self {
            Unit::Params { list, slots } => {
                Self::params_find(*list, slots, name, text, |u| u.class(name, text))
            }
            Unit::Read(symbols) => symbols.iter().rev().find(|s| s.name == name).map(Class::of),
            Unit::Decl { node, names, .. } => {
                let names = Self::names_for(*node, names, name, text)?;
                let (_, is_function) = names.iter().rev().find(|(n, _)| *n == name)?;
                Some(Class {
                    is_typedef: declares_typedef(*node, text),
                    is_function: *is_function,
                })
            }
        }
    }
}

/// What a visible name is, for rules that need no more than that: a type
/// name (`typedef`), a function, or else an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class {
    pub is_typedef: bool,
    pub is_function: bool,
}

impl Class {
    fn of(s: &Symbol) -> Self {
        Class {
            is_typedef: s.is_typedef,
            is_function: s.ty.is_function(),
        }
    }
}

/// Whether `name` occurs in `text` with no identifier character (ASCII
/// letter, digit, `_`) right before or after it. A false answer means no
/// identifier of `text` is `name`.
fn contains_word(text: &str, name: &str) -> bool {
    let (bytes, word) = (text.as_bytes(), name.as_bytes());
    let Some((&first, _)) = word.split_first() else {
        return true;
    };
    if bytes.len() < word.len() {
        return false;
    }
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    // A byte loop: declarations are short, and `str::find` sets up a
    // searcher on every call.
    (0..=bytes.len() - word.len()).any(|at| {
        bytes[at] == first
            && bytes[at..at + word.len()] == *word
            && (at == 0 || !ident(bytes[at - 1]))
            && bytes.get(at + word.len()).map_or(true, |&b| !ident(b))
    })
}

/// The start of the last word `name` in `text` (as [`contains_word`] finds
/// words) that starts before byte `before`.
fn rfind_word(text: &str, name: &str, before: usize) -> Option<usize> {
    let (bytes, word) = (text.as_bytes(), name.as_bytes());
    let &first = word.first()?;
    let last_start = bytes.len().checked_sub(word.len())?;
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    (0..=last_start.min(before.checked_sub(1)?))
        .rev()
        .find(|&at| {
            bytes[at] == first
                && bytes[at..at + word.len()] == *word
                && (at == 0 || !ident(bytes[at - 1]))
                && bytes.get(at + word.len()).map_or(true, |&b| !ident(b))
        })
}

/// Whether a declaration's specifiers make it a `typedef`, as
/// `specifiers_and_declarators` reads it.
fn declares_typedef(decl: Node<'_>, text: &str) -> bool {
    if decl.kind_name() == "type_definition" {
        return true;
    }
    // The keyword is a word of the declaration's text when it is there.
    let decl_text = text.get(decl.start_byte()..decl.end_byte()).unwrap_or("");
    if !contains_word(decl_text, "typedef") {
        return false;
    }
    let declarator = crate::front::fields::field_id("declarator");
    let mut cursor = decl.walk();
    let mut more = cursor.goto_first_child();
    while more {
        let field = cursor.field_id();
        let is_declarator = field.is_some() && field == declarator;
        if !is_declarator && cursor.node().kind_name() == "typedef" {
            return true;
        }
        more = cursor.goto_next_sibling();
    }
    false
}

/// [`super::ctype::declarator_name`], and whether the declarator's derivations include a
/// function (what `CType::is_function` says of the type `declarator` reads).
fn declarator_name_and_function<'s>(node: Node<'_>, text: &'s str) -> Option<(&'s str, bool)> {
    match node.kind_name() {
        "identifier" | "field_identifier" | "type_identifier" => Some((
            text.get(node.start_byte()..node.end_byte()).unwrap_or(""),
            false,
        )),
        "init_declarator" | "parenthesized_declarator" | "attributed_declarator" => {
            let inner = node.field("declarator").or_else(|| node.named_child(0))?;
            declarator_name_and_function(inner, text)
        }
        "pointer_declarator" | "abstract_pointer_declarator" | "array_declarator" => {
            declarator_name_and_function(node.field("declarator")?, text)
        }
        "function_declarator" => {
            let (n, _) = declarator_name_and_function(node.field("declarator")?, text)?;
            Some((n, true))
        }
        _ => None,
    }
}

impl<'t> Locals<'t> {
    /// The statement these locals were taken at, when it was found.
    pub fn stmt(&self) -> Option<Node<'t>> {
        self.stmt
    }

    /// The local symbol named `name`: the last declared.
    fn get(&self, name: &str) -> Option<&Symbol> {
        self.units.iter().rev().find_map(|u| u.get(name, self.text))
    }

    /// [`Locals::get`]'s answer as a [`Class`].
    fn class(&self, name: &str) -> Option<Class> {
        self.units
            .iter()
            .rev()
            .find_map(|u| u.class(name, self.text))
    }
}

/// What is visible at one place: the local declarations, then the file scope
/// before the enclosing top-level item.
pub struct Visible<'f, 't> {
    file: &'f FileScope<'t>,
    locals: &'f Locals<'t>,
}

impl Visible<'_, '_> {
    pub fn get(&self, name: &str) -> Option<&Symbol> {
        self.locals.get(name).or_else(|| self.global(name))
    }

    /// What `get(name)` would find, as a [`Class`]: a local's type is not
    /// read.
    pub fn class(&self, name: &str) -> Option<Class> {
        self.locals
            .class(name)
            .or_else(|| self.global(name).map(Class::of))
    }

    fn global(&self, name: &str) -> Option<&Symbol> {
        self.file
            .by_name()
            .get(name)?
            .iter()
            .rev()
            .find(|(at, _)| *at < self.locals.before)
            .map(|(_, s)| s)
    }
}

/// The declarations inside top-level item `top` visible at `start..end`
/// (parameters, earlier items of the enclosing blocks, `for` initializers,
/// earlier declarations in an enclosing `#if` group), found walking down from
/// `top` with the rules of [`visible_at`]. (`Node::parent` would restart from
/// the root each time, a walk over the whole file.)
fn local_units<'t>(
    top: Node<'t>,
    text: &'t str,
    start: usize,
    end: usize,
) -> (Vec<Unit<'t>>, Option<Node<'t>>) {
    let mut units = Vec::new();
    let mut node = top;
    loop {
        if start < end && node.start_byte() == start && node.end_byte() == end {
            return (units, Some(node));
        }
        // One pass over the children: the one on the way, and for a block
        // the declarations before it (or before the point).
        let mut child = None;
        let mut c = node.walk();
        let block = node.kind_name() == "compound_statement";
        for ch in node.children(&mut c) {
            if ch.start_byte() <= start && end <= ch.end_byte() && start < ch.end_byte() {
                child = Some(ch);
                break;
            }
            if ch.start_byte() >= start {
                break;
            }
            if block && matches!(ch.kind_name(), "declaration" | "type_definition") {
                units.push(Unit::decl(ch, Storage::Local));
            }
        }
        let limit = child.map(|ch| ch.start_byte()).unwrap_or(start);
        match node.kind_name() {
            "function_definition" => {
                if let Some(list) = node.field("declarator").and_then(parameter_list) {
                    let slots = (0..list.child_count()).map(|_| OnceCell::new()).collect();
                    units.push(Unit::Params { list, slots });
                }
            }
            "preproc_ifdef"
            | "preproc_if"
            | "preproc_else"
            | "preproc_elif"
            | "linkage_specification"
            | "declaration_list" => {
                let mut syms = Vec::new();
                let mut c = node.walk();
                for item in node.named_children(&mut c) {
                    if item.start_byte() >= limit {
                        break;
                    }
                    collect_file_scope(item, text, &mut syms);
                }
                units.push(Unit::Read(syms));
            }
            "for_statement" => {
                if let Some(init) = node.field("initializer") {
                    let into_init = child.is_some_and(|ch| ch.id() == init.id());
                    if init.kind_name() == "declaration" && !into_init {
                        units.push(Unit::decl(init, Storage::Local));
                    }
                }
            }
            _ => {}
        }
        match child {
            Some(ch) => node = ch,
            None => break,
        }
    }
    (units, None)
}

pub(crate) fn collect_file_scope(item: Node<'_>, text: &str, out: &mut Vec<Symbol>) {
    match item.kind_name() {
        "declaration" | "type_definition" => declared_by(item, text, Storage::Global, out),
        "preproc_ifdef"
        | "preproc_if"
        | "preproc_else"
        | "preproc_elif"
        | "linkage_specification"
        | "declaration_list" => {
            let mut c = item.walk();
            for ch in item.named_children(&mut c) {
                collect_file_scope(ch, text, out);
            }
        }
        "function_definition" => {
            // The function itself is visible; its type does not matter here.
            if let Some(d) = item.field("declarator") {
                if let Some((name, span, derivs)) = declarator(d, text) {
                    out.push(Symbol {
                        name,
                        ty: CType {
                            base: String::new(),
                            derivs,
                        },
                        storage: Storage::Global,
                        is_static: false,
                        is_extern: false,
                        is_typedef: false,
                        span,
                        decl_span: Span::new(item.start_byte(), item.end_byte()),
                        param_bound: None,
                    });
                }
            }
        }
        _ => {}
    }
}

/// The parameters of a function declarator (through pointer declarators).
/// The parameter names of function definition `def`, each once (what
/// [`visible_at`] finds with `Storage::Param` in its body), without reading
/// the file scope.
pub fn param_names(def: Node<'_>, text: &str) -> Vec<String> {
    let mut syms = Vec::new();
    if let Some(decl) = def.field("declarator") {
        params_of(decl, text, &mut syms);
    }
    let mut names: Vec<String> = syms.into_iter().map(|s| s.name).collect();
    names.sort();
    names.dedup();
    names
}

fn params_of(decl: Node<'_>, text: &str, out: &mut Vec<Symbol>) {
    for p in param_declarations(decl) {
        declared_by(p, text, Storage::Param, out);
    }
}

/// The `parameter_declaration`s of a function declarator (through pointer
/// declarators).
fn param_declarations(decl: Node<'_>) -> Vec<Node<'_>> {
    let Some(params) = parameter_list(decl) else {
        return Vec::new();
    };
    // By index: a parameter list is short, and `named_child` steps
    // through the children without a cursor's bookkeeping.
    (0..params.named_child_count())
        .filter_map(|k| params.named_child(k as u32))
        .filter(|p| p.kind_name() == "parameter_declaration")
        .collect()
}

/// The `parameters` of a function declarator (through pointer declarators).
fn parameter_list(decl: Node<'_>) -> Option<Node<'_>> {
    let mut d = decl;
    loop {
        if d.kind_name() == "function_declarator" {
            return d.field("parameters");
        }
        d = d.field("declarator")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::parse_c;

    #[test]
    fn words() {
        assert!(contains_word("double *restrict a", "a"));
        assert!(!contains_word("double *restrict ab", "a"));
        assert!(!contains_word("double *restrict ba", "a"));
        assert!(contains_word("int a_1, b", "b"));
        assert!(contains_word("int a_1,b", "a_1"));
        assert!(!contains_word("int a_10", "a_1"));
        assert!(contains_word("int é,x", "x"));
        assert!(contains_word("x", "x"));
        assert!(!contains_word("", "x"));
    }

    /// Parameters are found by the word's place in the parameter list: names
    /// inside other parameters' declarators, types and prefixes of longer
    /// names do not confuse it.
    #[test]
    fn parameters_by_place() {
        let text = "typedef int T;\n\
            int p(T T2, int a, int (*cb)(int a, int q), double *restrict ab, int x, T a_, int y) {\n\
              for (int i = 0; i < 1; i++) { x += i; }\n\
              return 0;\n\
            }\n";
        let tree = parse_c(text.to_string());
        let root = tree.root().expect("tree");
        let index = FileScope::new(root, text);
        let at = text.find("for (").unwrap();
        let end = text[at..].find('}').unwrap() + at + 1;
        let stmt = index.node_at(at, end).expect("for statement");
        let old = visible_at(root, text, stmt);
        let locals = index.locals(text, at, end);
        let new = index.visible(&locals);
        for n in [
            "T", "T2", "a", "cb", "q", "ab", "x", "a_", "y", "i", "p", "int",
        ] {
            assert_eq!(
                old.get(n).map(|s| s.span),
                new.get(n).map(|s| s.span),
                "`{n}`"
            );
            assert_eq!(old.get(n).map(Class::of), new.class(n), "`{n}`");
        }
        assert!(new.get("q").is_none());
        assert_eq!(new.get("a").map(|s| s.storage), Some(Storage::Param));
    }

    /// Classes of typedefs, functions and function parameters agree with
    /// the symbols' types.
    #[test]
    fn classes_agree_with_symbols() {
        let text = "typedef int T;\n\
            void f(int g(int), int (*h)(void), int a[4]) {\n\
              typedef double R; int k(int), *p, q[3]; float _Complex z;\n\
              int (*fp)(int);\n\
              for (int i = 0; i < 1; i++) { a[i] = 0; }\n\
            }\n";
        let tree = parse_c(text.to_string());
        let root = tree.root().expect("tree");
        let index = FileScope::new(root, text);
        let at = text.find("for (").unwrap();
        let end = text[at..].find('}').unwrap() + at + 1;
        let stmt = index.node_at(at, end).expect("for statement");
        let old = visible_at(root, text, stmt);
        let locals = index.locals(text, at, end);
        let new = index.visible(&locals);
        for n in [
            "T", "f", "g", "h", "a", "R", "k", "p", "q", "z", "fp", "i", "none",
        ] {
            assert_eq!(old.get(n).map(Class::of), new.class(n), "`{n}`");
            assert_eq!(
                old.get(n).map(|s| s.span),
                new.get(n).map(|s| s.span),
                "`{n}`"
            );
        }
        assert_eq!(
            new.class("k"),
            Some(Class {
                is_typedef: false,
                is_function: true
            })
        );
        assert!(new.class("R").is_some_and(|c| c.is_typedef));
        assert!(new.class("g").is_some_and(|c| c.is_function));
    }

    /// The indexed lookup agrees with `visible_at` for every statement.
    #[test]
    fn file_scope_index_agrees_with_visible_at() {
        let text = "int g; typedef double real;\n\
            static real h(int x) { return x; }\n\
            #ifdef X\nint in_if;\n#endif\n\
            void f(int n, double *a) {\n\
              int k = 0;\n\
              for (int i = 0; i < n; i++) { int t = i; a[i] = t + k; }\n\
              { double u = 1; a[0] = u; }\n\
              a[1] = g;\n\
            }\n\
            int late;\n";
        let tree = parse_c(text.to_string());
        let root = tree.root().expect("tree");
        let index = FileScope::new(root, text);
        let names = [
            "g", "real", "h", "in_if", "n", "a", "k", "i", "t", "u", "late", "f",
        ];
        let mut stack = vec![root];
        let mut checked = 0;
        while let Some(node) = stack.pop() {
            let mut c = node.walk();
            stack.extend(node.named_children(&mut c));
            if !node.kind_name().ends_with("statement") {
                continue;
            }
            let old = visible_at(root, text, node);
            let locals = index.locals(text, node.start_byte(), node.end_byte());
            let new = index.visible(&locals);
            for n in names {
                assert_eq!(
                    old.get(n).map(|s| s.span),
                    new.get(n).map(|s| s.span),
                    "`{n}` at {:?}",
                    &text[node.start_byte()..node.end_byte()]
                );
                assert_eq!(
                    old.get(n).map(Class::of),
                    new.class(n),
                    "class of `{n}` at {:?}",
                    &text[node.start_byte()..node.end_byte()]
                );
            }
            checked += 1;
        }
        assert!(checked > 8, "{checked}");
        // node_at finds what the walk over every child found.
        let by_children = |start: usize, end: usize| {
            let k = index.tops.partition_point(|n| n.start_byte() <= start);
            node_at_by_children(*index.tops.get(k.checked_sub(1)?)?, start, end)
        };
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            let mut c = node.walk();
            stack.extend(node.children(&mut c));
            let (s, e) = (node.start_byte(), node.end_byte());
            for (a, b) in [(s, e), (s, s), (s, e + 1), (s + 1, e), (e, e)] {
                assert_eq!(index.node_at(a, b), by_children(a, b), "{a}..{b}");
            }
        }
        // A point between statements sees what the next statement sees.
        let pos = text.find("a[1] = g").unwrap();
        let locals = index.locals(text, pos - 1, pos - 1);
        let at = index.visible(&locals);
        assert!(at.get("k").is_some() && at.get("u").is_none() && at.get("late").is_none());
    }
}
