//! Function-level C that is not C++: K&R definitions (rewritten as
//! prototypes), `()` declarations of functions the file defines with
//! parameters (given the parameters), variable-length array parameters (the
//! outermost bound dropped, which C ignores too; an inner one is refused),
//! and jumps (`goto`, `switch` to a `case`) over an initialization, which
//! C++ forbids: a single scalar declaration is split (`int y = 3;` becomes
//! `int y; y = 3;`), anything else is refused (E0501).

use super::scope::Scopes;
use super::Edit;
use crate::diag::{codes, Diagnostic};
use crate::front::c::Node;
use crate::sema::ctype::{declarator, specifiers, specifiers_and_declarators, CType, Deriv};
use crate::sema::layout::Consts;
use crate::source::Span;
use std::collections::{HashMap, HashSet};

fn text_of<'s>(n: Node<'_>, text: &'s str) -> &'s str {
    text.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

fn span(n: Node<'_>) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

/// A declaration with an initializer, inside a function.
struct Init {
    decl: Span,
    /// The block the declared names are visible in.
    block: Span,
    name: String,
    /// Where `; name` splits it, when it can be split.
    split_at: Option<usize>,
}

/// A jump: from where, to where, and its span (for the diagnostic).
struct Jump {
    from: usize,
    to: JumpTo,
    at: Span,
}

enum JumpTo {
    Label(String),
    Pos(usize),
}

/// What the walk records about the current function and the file's functions.
#[derive(Default)]
pub struct Functions {
    /// The current function's return type.
    pub ret: Option<CType>,
    inits: Vec<Init>,
    jumps: Vec<Jump>,
    labels: HashMap<String, usize>,
    /// `T f();` declarations: name and the `()` span.
    empty: Vec<(String, Span)>,
    /// Each defined function's parameter list text.
    defined: HashMap<String, String>,
}

/// The `function_declarator` of a declarator (through pointers and parentheses).
pub fn function_declarator(mut d: Node<'_>) -> Option<Node<'_>> {
    loop {
        match d.kind() {
            "function_declarator" => return Some(d),
            "pointer_declarator" | "parenthesized_declarator" | "attributed_declarator" => {
                d = d
                    .child_by_field_name("declarator")
                    .or_else(|| d.named_child(0))?;
            }
            _ => return None,
        }
    }
}

/// The parameters of a function declarator, as their (decayed) types.
pub fn parameter_types(fd: Node<'_>, text: &str) -> Option<Vec<CType>> {
    let list = fd.child_by_field_name("parameters")?;
    let mut c = list.walk();
    let mut out = Vec::new();
    for p in list.named_children(&mut c) {
        match p.kind() {
            "parameter_declaration" => {
                let (base, ..) = specifiers(p, text);
                let derivs = match p.child_by_field_name("declarator") {
                    Some(d) => crate::sema::ctype::declarator(d, text)
                        .map(|(_, _, ds)| ds)
                        .or_else(|| abstract_derivs(d))?,
                    None => Vec::new(),
                };
                let t = CType { base, derivs }.decayed();
                if t.base == "void" && t.derivs.is_empty() {
                    continue;
                }
                out.push(t);
            }
            "comment" => {}
            // `...`, a K&R identifier list: the types are not all known.
            _ => return None,
        }
    }
    Some(out)
}

/// `int *` (an abstract declarator): one pointer level per `*`.
fn abstract_derivs(d: Node<'_>) -> Option<Vec<Deriv>> {
    let mut out = Vec::new();
    let mut n = Some(d);
    while let Some(x) = n {
        if x.kind() != "abstract_pointer_declarator" {
            return None;
        }
        out.push(Deriv::Pointer { quals: vec![] });
        n = x.child_by_field_name("declarator");
    }
    Some(out)
}

impl Functions {
    /// Entering a function definition: its return type and parameters, and
    /// the rewrite of a K&R parameter list.
    pub fn enter(&mut self, def: Node<'_>, text: &str, scopes: &mut Scopes, edits: &mut Vec<Edit>) {
        self.inits.clear();
        self.jumps.clear();
        self.labels.clear();
        self.ret = None;
        let Some(d) = def.child_by_field_name("declarator") else {
            return;
        };
        let (base, ..) = specifiers(def, text);
        if let Some((name, _, derivs)) = declarator(d, text) {
            if derivs.first() == Some(&Deriv::Function) {
                self.ret = Some(CType {
                    base: base.clone(),
                    derivs: derivs[1..].to_vec(),
                });
            }
            scopes.declare_global(&name, CType { base, derivs });
            let Some(fd) = function_declarator(d) else {
                return;
            };
            let list = fd.child_by_field_name("parameters");
            if let Some(list) = list {
                let params = match knr(def, list, text, edits) {
                    Some(p) => p,
                    None => text_of(list, text).to_string(),
                };
                self.defined.insert(name.clone(), params);
                let mut c = list.walk();
                for p in list.named_children(&mut c) {
                    if p.kind() == "parameter_declaration" {
                        let mut syms = Vec::new();
                        crate::sema::symbols::declared_by(
                            p,
                            text,
                            crate::sema::symbols::Storage::Param,
                            &mut syms,
                        );
                        for s in syms {
                            scopes.declare(&s.name, s.ty);
                        }
                    }
                }
            }
            if let Some(ps) = parameter_types(fd, text) {
                scopes.functions.insert(name, ps);
            }
        }
    }

    /// A file-scope declaration of functions: their parameters, and the
    /// `()` ones (see `finish`).
    pub fn prototype(&mut self, decl: Node<'_>, text: &str, scopes: &mut Scopes) {
        let mut ds = Vec::new();
        specifiers_and_declarators(decl, text, Some(&mut ds));
        for d in ds {
            let Some(fd) = function_declarator(d) else {
                continue;
            };
            let Some(name) = fd
                .child_by_field_name("declarator")
                .map(|n| text_of(n, text).to_string())
            else {
                continue;
            };
            let Some(list) = fd.child_by_field_name("parameters") else {
                continue;
            };
            if text_of(list, text)
                .trim_start_matches('(')
                .trim_end_matches(')')
                .trim()
                .is_empty()
            {
                self.empty.push((name.clone(), span(list)));
            } else if let Some(ps) = parameter_types(fd, text) {
                scopes.functions.insert(name, ps);
            }
        }
    }

    /// A declaration inside a function: remembered if it initializes.
    /// `ancestors`: the nodes from the root down to `decl`'s parent.
    pub fn local_declaration(&mut self, decl: Node<'_>, ancestors: &[Node<'_>], text: &str) {
        let mut ds = Vec::new();
        let (base, is_static, is_extern, is_typedef) =
            specifiers_and_declarators(decl, text, Some(&mut ds));
        if is_static || is_extern || is_typedef {
            return;
        }
        let inits: Vec<Node<'_>> = ds
            .iter()
            .copied()
            .filter(|d| d.kind() == "init_declarator")
            .collect();
        let Some(first) = inits.first() else {
            return;
        };
        let block = ancestors
            .iter()
            .rev()
            .find(|b| matches!(b.kind(), "compound_statement" | "for_statement"));
        let Some(block) = block.copied() else {
            return;
        };
        let name = declarator(*first, text).map(|x| x.0).unwrap_or_default();
        let ty = declarator(*first, text).map(|(_, _, derivs)| CType {
            base: base.clone(),
            derivs,
        });
        let splittable = ds.len() == 1
            && ancestors.last().map(|p| p.kind()) != Some("for_statement")
            && ty.is_some_and(|t| {
                !t.is_const_base() && t.derivs.iter().all(|d| matches!(d, Deriv::Pointer { .. }))
            })
            && first
                .child_by_field_name("value")
                .is_some_and(|v| v.kind() != "initializer_list");
        let split_at = if splittable {
            first
                .child_by_field_name("declarator")
                .map(|d| d.end_byte())
        } else {
            None
        };
        self.inits.push(Init {
            decl: span(decl),
            block: span(block),
            name,
            split_at,
        });
    }

    pub fn goto(&mut self, n: Node<'_>, text: &str) {
        if let Some(l) = n.child_by_field_name("label") {
            self.jumps.push(Jump {
                from: n.start_byte(),
                to: JumpTo::Label(text_of(l, text).to_string()),
                at: span(n),
            });
        }
    }

    pub fn label(&mut self, n: Node<'_>, text: &str) {
        if let Some(l) = n.child_by_field_name("label") {
            self.labels
                .insert(text_of(l, text).to_string(), n.start_byte());
        }
    }

    /// A `case` or `default` label: a jump from its `switch`.
    /// `ancestors`: the nodes from the root down to `n`'s parent.
    pub fn case(&mut self, n: Node<'_>, ancestors: &[Node<'_>]) {
        for s in ancestors.iter().rev() {
            if s.kind() == "switch_statement" {
                self.jumps.push(Jump {
                    from: s.start_byte(),
                    to: JumpTo::Pos(n.start_byte()),
                    at: Span::new(n.start_byte(), n.start_byte() + 4),
                });
                return;
            }
        }
    }

    /// Leaving a function: the initializations its jumps cross.
    pub fn leave(&mut self, name: &str, edits: &mut Vec<Edit>, diags: &mut Vec<Diagnostic>) {
        let mut split: HashSet<usize> = HashSet::new();
        for j in &self.jumps {
            let to = match &j.to {
                JumpTo::Label(l) => match self.labels.get(l) {
                    Some(p) => *p,
                    None => continue,
                },
                JumpTo::Pos(p) => *p,
            };
            for (k, d) in self.inits.iter().enumerate() {
                let in_scope = |p: usize| p >= d.decl.end && p >= d.block.start && p < d.block.end;
                if !in_scope(to) || in_scope(j.from) {
                    continue;
                }
                match d.split_at {
                    Some(at) => {
                        if split.insert(k) {
                            edits.push(Edit::insert(at, 60, format!("; {}", d.name)));
                        }
                    }
                    None => diags.push(
                        Diagnostic::new(
                            codes::NOT_CXX,
                            j.at,
                            format!("this jump in `{name}` crosses the initialization of `{}`, which C++ forbids", d.name),
                        )
                        .with_label("jumps over an initialized declaration")
                        .with_help(format!("declare `{}` without an initializer and assign it, or move the declaration", d.name)),
                    ),
                }
            }
        }
        self.inits.clear();
        self.jumps.clear();
        self.labels.clear();
        self.ret = None;
    }

    /// `T f();` of a function the file defines with parameters: the
    /// parameters written in (C++ reads `()` as no parameters).
    pub fn finish(&self, edits: &mut Vec<Edit>) {
        for (name, at) in &self.empty {
            if let Some(ps) = self.defined.get(name) {
                let inner = ps
                    .trim()
                    .trim_start_matches('(')
                    .trim_end_matches(')')
                    .trim();
                if !inner.is_empty() && inner != "void" {
                    edits.push(Edit::replace(*at, ps.clone()));
                }
            }
        }
    }
}

/// A K&R definition `int f(a, b) int a; double b; { ... }` becomes `int
/// f(int a, double b) { ... }` (a name without a declaration is `int`).
/// Returns the new parameter list.
fn knr(def: Node<'_>, list: Node<'_>, text: &str, edits: &mut Vec<Edit>) -> Option<String> {
    let mut c = list.walk();
    let names: Vec<Node<'_>> = list
        .named_children(&mut c)
        .filter(|n| n.kind() != "comment")
        .collect();
    if names.is_empty() || names.iter().any(|n| n.kind() != "identifier") {
        return None;
    }
    let mut c = def.walk();
    let decls: Vec<Node<'_>> = def
        .children(&mut c)
        .filter(|n| n.kind() == "declaration")
        .collect();
    let mut types: HashMap<String, String> = HashMap::new();
    for d in &decls {
        let mut ds = Vec::new();
        let (base, ..) = specifiers_and_declarators(*d, text, Some(&mut ds));
        for x in ds {
            if let Some((name, _, derivs)) = declarator(x, text) {
                let t = CType {
                    base: base.clone(),
                    derivs,
                };
                types.insert(name.clone(), t.declare(&name));
            }
        }
    }
    let params: Vec<String> = names
        .iter()
        .map(|n| {
            let name = text_of(*n, text);
            types
                .get(name)
                .cloned()
                .unwrap_or_else(|| format!("int {name}"))
        })
        .collect();
    let new = format!("({})", params.join(", "));
    edits.push(Edit::replace(span(list), new.clone()));
    for d in decls {
        edits.push(Edit::replace(span(d), ""));
    }
    Some(new)
}

/// A parameter declared as a variable-length array: its outermost bound
/// is dropped (`double a[n]` is `double *a` in C as well), an inner one is
/// refused.
pub fn vla_parameter(
    p: Node<'_>,
    text: &str,
    scopes: &Scopes,
    consts: &Consts,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut arrays: Vec<Node<'_>> = Vec::new();
    let mut d = p.child_by_field_name("declarator");
    while let Some(x) = d {
        if x.kind() == "array_declarator" {
            arrays.push(x);
        }
        d = x.child_by_field_name("declarator").or_else(|| {
            (x.kind() == "parenthesized_declarator")
                .then(|| x.named_child(0))
                .flatten()
        });
    }
    let variable = |a: Node<'_>| -> bool {
        let Some(size) = a.child_by_field_name("size") else {
            // `[*]` is variable; `[]` is not.
            return text_of(a, text).contains('*');
        };
        let s = text_of(size, text);
        consts.eval(s).is_none() && !only_constants(s, scopes)
    };
    for (i, a) in arrays.iter().enumerate() {
        if !variable(*a) {
            continue;
        }
        let outermost = i + 1 == arrays.len()
            && a.child_by_field_name("declarator")
                .is_some_and(|x| x.kind() == "identifier");
        if outermost {
            if let Some(size) = a.child_by_field_name("size") {
                edits.push(Edit::replace(span(size), ""));
            }
        } else {
            diags.push(
                Diagnostic::new(
                    codes::NOT_CXX,
                    span(p),
                    "a parameter of variably modified type (a variable-length array bound that is not the outermost) has no C++ spelling",
                )
                .with_label("variable-length array parameter")
                .with_help("pass a pointer and compute the index (`a[i * n + j]`)"),
            );
            return;
        }
    }
}

/// Whether every name in `expr` is an enumerator or a macro (then the
/// bound is a constant the evaluator did not know).
pub fn only_constants(expr: &str, scopes: &Scopes) -> bool {
    crate::source::words::identifier_tokens(expr).all(|w| {
        let keyword = matches!(
            w,
            "sizeof"
                | "char"
                | "short"
                | "int"
                | "long"
                | "float"
                | "double"
                | "signed"
                | "unsigned"
        );
        keyword || scopes.is_enumerator(w) || scopes.macros.contains(w)
    })
}
