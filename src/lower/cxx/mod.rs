//! Making C valid C++ with the fewest edits.
//!
//! nvcc and clang compile `.cu` files as C++. C that is not C++ is rewritten
//! here, and only here, in one walk over the tree that dispatches on each
//! node's kind ([`compat_edits`]):
//! - casts where C converts implicitly and C++ does not (`convert`): a
//!   `void *` value to another object pointer, an integer to an enum, a
//!   string literal to `char *`;
//! - designated initializers C++ does not accept, rewritten (`designated`);
//! - identifiers that are C++ keywords renamed (`keywords`), and a file's
//!   own `true`, `false` or `bool` (an enumerator, a typedef) renamed too;
//! - K&R definitions, `()` prototypes, variable-length array parameters,
//!   jumps over initializations (`functions`);
//! - repeated tentative definitions and `extern "C"` around every
//!   declaration with external linkage (so the object links with C
//!   objects) and around quoted `#include`s (`linkage`);
//! - `#include <omp.h>` / `<openacc.h>` replaced by the prelude's runtime
//!   API, and `((void *)0)` (a preprocessed `NULL`) made `nullptr`;
//! - C11 keywords and enum arithmetic spelled by a block placed before the
//!   translated source (`c11`), C99 complex numbers (`complex`).
//!
//! `restrict` and `_Bool` need no edit: the prelude spells them. What has
//! no C++ spelling is refused (E0501) naming the construct.

mod c11;
pub(crate) mod complex;
mod convert;
mod designated;
mod functions;
pub mod keywords;
mod linkage;
mod scope;

use crate::diag::Diagnostic;
use crate::front::c::Node;
use crate::front::CTree;
use crate::ir::edit::{CxxPlan, Edit, FreshName};
use crate::sema::ctype::{declarator, specifiers, specifiers_and_declarators, CType};
use crate::sema::layout::Consts;
use crate::sema::symbols;
use crate::source::Span;
use scope::Scopes;

/// The edits that make the C file valid C++. `offloaded` are the spans of
/// the offloaded regions (pragma to end of statement); `kernel_locals` those
/// of them whose declarations become the kernel's own locals (not generic
/// mode, which stages its sequential part's variables).
pub fn compat_edits(
    tree: &CTree,
    orig: &str,
    offloaded: &[Span],
    kernel_locals: &[Span],
    namer: &mut dyn FreshName,
    diags: &mut Vec<Diagnostic>,
) -> CxxPlan {
    let Some(root) = tree.root() else {
        return CxxPlan::default();
    };
    let consts = Consts::from_text(orig);
    let mut w = Walk {
        tree,
        text: tree.text.as_str(),
        orig,
        offloaded,
        kernel_locals,
        consts: &consts,
        edits: Vec::new(),
        diags: Vec::new(),
        scopes: Scopes::new(),
        keywords: keywords::Found::default(),
        functions: functions::Functions::default(),
        truth: Truth::default(),
        c11: false,
        inner_vlas: Vec::new(),
        vla_refused: Vec::new(),
        parents: Vec::new(),
        nodes: Vec::new(),
    };
    let mut cursor = root.walk();
    'walk: loop {
        let n = cursor.node();
        let kind = crate::front::fields::kind(n);
        w.enter(n, kind);
        w.parents.push(kind);
        w.nodes.push(n);
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            let kind = w.parents.pop().unwrap_or_default();
            let n = w.nodes.pop().unwrap_or_else(|| cursor.node());
            w.leave(n, kind);
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    w.finish(root, namer);
    let complex = complex::complex_edits(orig, &mut w.edits, &mut w.diags);
    diags.extend(w.diags);
    CxxPlan {
        edits: w.edits,
        complex,
    }
}

/// A file's own `true`, `false` or `bool` (an enumerator, a typedef, a
/// variable): C++ keywords, so every token so spelled is renamed.
#[derive(Default)]
struct Truth {
    declared: Vec<&'static str>,
    tokens: Vec<(&'static str, Span)>,
}

const TRUTH: [&str; 3] = ["true", "false", "bool"];

struct Walk<'a> {
    tree: &'a CTree,
    text: &'a str,
    orig: &'a str,
    offloaded: &'a [Span],
    kernel_locals: &'a [Span],
    consts: &'a Consts,
    edits: Vec<Edit>,
    diags: Vec<Diagnostic>,
    scopes: Scopes,
    keywords: keywords::Found,
    functions: functions::Functions,
    truth: Truth,
    /// Whether the file spells a C11 keyword C++ lacks.
    c11: bool,
    /// Arrays with a variable bound other than the outermost (`double
    /// m[n][n]`): refused where a region uses them.
    inner_vlas: Vec<(String, Span)>,
    /// The names already refused by `vla_use`.
    vla_refused: Vec<String>,
    /// The kinds of the nodes from the root down to the one being visited
    /// (the walk's own stack: `Node::parent` searches from the root).
    parents: Vec<&'a str>,
    /// The nodes of `parents`.
    nodes: Vec<Node<'a>>,
}

impl<'a> Walk<'a> {
    fn enter(&mut self, n: Node<'a>, kind: &'a str) {
        if n.child_count() == 0 {
            self.token(n, kind);
        }
        match kind {
            "translation_unit" => {
                linkage::c_linkage(n, self.tree, self.orig, &mut self.edits);
                linkage::repeated_definitions(n, self.tree, &mut self.edits, &mut self.diags);
            }
            "identifier" | "field_identifier" | "type_identifier" => {
                self.keywords.see(n, self.tree, self.offloaded);
                if kind == "identifier" && !self.inner_vlas.is_empty() {
                    self.vla_use(n);
                }
            }
            "preproc_include" => self.runtime_include(n),
            "preproc_def" | "preproc_function_def" => {
                if let Some(name) = n.child_by_field_name("name") {
                    self.scopes
                        .macros
                        .insert(self.tree.text_of(name).to_string());
                }
            }
            "parenthesized_expression" => self.null_pointer_constant(n),
            "enum_specifier" => {
                self.enum_type(n);
            }
            "struct_specifier" | "union_specifier" => {
                self.record_type(n);
            }
            "type_definition" => self.type_definition(n),
            "function_definition" => {
                self.scopes.push();
                self.functions
                    .enter(n, self.text, &mut self.scopes, &mut self.edits);
            }
            "compound_statement" | "for_statement" => self.scopes.push(),
            "declaration" => self.declaration(n),
            "parameter_declaration" => functions::vla_parameter(
                n,
                self.text,
                &self.scopes,
                self.consts,
                &mut self.edits,
                &mut self.diags,
            ),
            "init_declarator" => self.init_declarator(n),
            "compound_literal_expression" => self.compound_literal(n),
            "assignment_expression" => {
                convert::assignment(n, self.text, &self.scopes, &mut self.edits, &mut self.diags)
            }
            "return_statement" => convert::return_statement(
                n,
                self.functions.ret.as_ref(),
                self.text,
                &self.scopes,
                &mut self.edits,
                &mut self.diags,
            ),
            "call_expression" => {
                let f = n.child_by_field_name("function");
                let params = f
                    .filter(|f| f.kind() == "identifier")
                    .and_then(|f| self.scopes.functions.get(self.tree.text_of(f)));
                convert::call_arguments(
                    n,
                    params.map(Vec::as_slice),
                    self.text,
                    &self.scopes,
                    &mut self.edits,
                    &mut self.diags,
                );
            }
            "goto_statement" => self.functions.goto(n, self.text),
            "labeled_statement" => self.functions.label(n, self.text),
            "case_statement" => self.functions.case(n, &self.nodes),
            _ => {}
        }
    }

    fn leave(&mut self, n: Node<'_>, kind: &str) {
        match kind {
            "function_definition" => {
                let name = n
                    .child_by_field_name("declarator")
                    .and_then(|d| declarator(d, self.text))
                    .map(|d| d.0)
                    .unwrap_or_default();
                self.functions
                    .leave(&name, &mut self.edits, &mut self.diags);
                self.scopes.pop();
            }
            "compound_statement" | "for_statement" => self.scopes.pop(),
            _ => {}
        }
    }

    /// A use in an offloaded region of an array with an inner variable bound.
    fn vla_use(&mut self, n: Node<'_>) {
        let at = Span::new(n.start_byte(), n.end_byte());
        if !self.offloaded.iter().any(|r| at.within(*r)) {
            return;
        }
        let name = self.tree.text_of(n);
        if self.vla_refused.iter().any(|v| v == name) {
            return;
        }
        if self.inner_vlas.iter().any(|(v, _)| v == name) {
            self.vla_refused.push(name.to_string());
            self.diags.push(
                Diagnostic::new(
                    crate::diag::codes::NOT_SUPPORTED,
                    at,
                    format!("`{name}` is a variable-length array with a variable inner bound; an offloaded region cannot use it yet"),
                )
                .with_label("used in an offloaded region")
                .with_help("use a constant inner bound, or a pointer and computed indices"),
            );
        }
    }

    /// A leaf: C11 keywords, and the file's `true` / `false` / `bool`.
    fn token(&mut self, n: Node<'_>, kind: &str) {
        let t = self.tree.text_of(n);
        if c11::C11_KEYWORDS.contains(&t) {
            self.c11 = true;
        }
        if let Some(w) = TRUTH.iter().find(|w| **w == t) {
            if matches!(
                kind,
                "identifier" | "type_identifier" | "primitive_type" | "true" | "false"
            ) {
                self.truth
                    .tokens
                    .push((w, Span::new(n.start_byte(), n.end_byte())));
            }
        }
    }

    fn declares_truth(&mut self, name: &str) {
        if let Some(w) = TRUTH.iter().find(|w| **w == name) {
            if !self.truth.declared.contains(w) {
                self.truth.declared.push(w);
            }
        }
    }

    fn declaration(&mut self, n: Node<'_>) {
        let mut syms = Vec::new();
        let parent = self.parents.last().copied();
        let top = parent == Some("translation_unit");
        let storage = if top {
            symbols::Storage::Global
        } else {
            symbols::Storage::Local
        };
        symbols::declared_by(n, self.text, storage, &mut syms);
        for s in &syms {
            self.vla(s, top);
        }
        for s in syms {
            self.declares_truth(&s.name);
            self.scopes.declare(&s.name, s.ty);
        }
        if top {
            self.functions.prototype(n, self.text, &mut self.scopes);
        } else if parent.is_some_and(|p| p != "function_definition") {
            self.functions.local_declaration(n, &self.nodes, self.text);
        }
    }

    /// Variable-length arrays the device code cannot have: one declared in
    /// an offloaded region (a kernel's local needs a constant size), and
    /// one with a variable bound other than the outermost that a region
    /// uses (its type would be a kernel parameter's). Refused (E0901).
    fn vla(&mut self, s: &symbols::Symbol, top: bool) {
        let variable: Vec<usize> =
            s.ty.derivs
                .iter()
                .enumerate()
                .filter_map(|(i, d)| match d {
                    crate::sema::ctype::Deriv::Array(Some(size))
                        if self.consts.eval(size).is_none()
                            && !functions::only_constants(size, &self.scopes) =>
                    {
                        Some(i)
                    }
                    _ => None,
                })
                .collect();
        if variable.is_empty() {
            return;
        }
        if self.kernel_locals.iter().any(|r| s.span.within(*r)) {
            self.diags.push(
                Diagnostic::new(
                    crate::diag::codes::NOT_SUPPORTED,
                    s.span,
                    format!("`{}` is a variable-length array declared in an offloaded region; device code needs a constant size", s.name),
                )
                .with_label("variable-length array in device code")
                .with_help("give the array a constant size, or allocate it on the host and map it"),
            );
        } else if variable.iter().any(|i| *i > 0) && !top {
            self.inner_vlas.push((s.name.clone(), s.span));
        }
    }

    fn init_declarator(&mut self, n: Node<'_>) {
        let Some(ty) = convert::init_declarator(
            n,
            self.nodes.last().copied(),
            self.text,
            &self.scopes,
            &mut self.edits,
            &mut self.diags,
        ) else {
            return;
        };
        if let Some(list) = n
            .child_by_field_name("value")
            .filter(|v| v.kind() == "initializer_list")
        {
            self.list(list, &ty);
        }
    }

    /// `(struct s){ .b = 1, .a = 2 }`.
    fn compound_literal(&mut self, n: Node<'_>) {
        let (Some(t), Some(list)) = (
            n.child_by_field_name("type"),
            n.child_by_field_name("value"),
        ) else {
            return;
        };
        let base = self.tree.text_of(t).trim().to_string();
        let ty = CType {
            base,
            derivs: Vec::new(),
        };
        self.list(list, &ty);
    }

    fn list(&mut self, list: Node<'_>, ty: &CType) {
        let lists = designated::Lists {
            text: self.text,
            scopes: &self.scopes,
            consts: self.consts,
        };
        lists.list(list, ty, &mut self.edits, &mut self.diags);
    }

    /// An enum with a body: its enumerators (and the file's `true`/`false`).
    /// Returns the key the enum is known by.
    fn enum_type(&mut self, n: Node<'_>) -> Option<String> {
        let name = n
            .child_by_field_name("name")
            .map(|x| self.tree.text_of(x).to_string());
        let key = match &name {
            Some(x) => format!("enum {x}"),
            None => format!("enum@{}", n.start_byte()),
        };
        self.scopes.add_enum(&key, &key);
        let body = n.child_by_field_name("body")?;
        let mut c = body.walk();
        let enumerators: Vec<Node<'_>> = body.named_children(&mut c).collect();
        for e in enumerators {
            if let Some(x) = e.child_by_field_name("name") {
                let t = self.tree.text_of(x).to_string();
                self.declares_truth(&t);
                self.scopes.add_enumerator(&t, &key);
            }
        }
        Some(key)
    }

    /// A struct or union with a body: its members (for initializer lists
    /// and member types). Returns the key it is known by.
    fn record_type(&mut self, n: Node<'_>) -> Option<String> {
        let kw = if n.kind() == "union_specifier" {
            "union"
        } else {
            "struct"
        };
        let key = match n.child_by_field_name("name") {
            Some(x) => format!("{kw} {}", self.tree.text_of(x)),
            None => format!("{kw}@{}", n.start_byte()),
        };
        let body = n.child_by_field_name("body")?;
        let mut members = Vec::new();
        let mut c = body.walk();
        let fields: Vec<Node<'_>> = body.named_children(&mut c).collect();
        for f in fields {
            if f.kind() != "field_declaration" {
                continue;
            }
            let mut ds = Vec::new();
            let (base, ..) = specifiers_and_declarators(f, self.text, Some(&mut ds));
            for d in ds {
                if let Some((name, _, derivs)) = declarator(d, self.text) {
                    members.push((
                        name,
                        CType {
                            base: base.clone(),
                            derivs,
                        },
                    ));
                }
            }
        }
        self.scopes.add_record(&key, members);
        Some(key)
    }

    /// `typedef enum {...} T;`, `typedef struct s T;`: `T` names the same type.
    fn type_definition(&mut self, n: Node<'_>) {
        let Some(t) = n.child_by_field_name("type") else {
            return;
        };
        let key = match t.kind() {
            "enum_specifier" => self.enum_type(t).or_else(|| {
                t.child_by_field_name("name")
                    .map(|x| format!("enum {}", self.tree.text_of(x)))
            }),
            "struct_specifier" | "union_specifier" => self.record_type(t).or_else(|| {
                let kw = if t.kind() == "union_specifier" {
                    "union"
                } else {
                    "struct"
                };
                t.child_by_field_name("name")
                    .map(|x| format!("{kw} {}", self.tree.text_of(x)))
            }),
            _ => Some(specifiers(n, self.text).0),
        };
        let mut c = n.walk();
        let names: Vec<Node<'_>> = n.children_by_field_name("declarator", &mut c).collect();
        if names.is_empty() {
            // `typedef int bool;` reads as two type names and no declarator.
            let last = (0..n.named_child_count())
                .filter_map(|i| n.named_child(i as u32))
                .filter(|c| c.kind() == "primitive_type")
                .nth(1);
            if let Some(l) = last {
                let t = self.tree.text_of(l).to_string();
                self.declares_truth(&t);
            }
        }
        for d in names {
            if d.kind() == "primitive_type" {
                // `typedef int bool;`
                let t = self.tree.text_of(d).to_string();
                self.declares_truth(&t);
            }
            if let Some((name, _, derivs)) = declarator(d, self.text) {
                self.declares_truth(&name);
                if let (Some(k), true) = (&key, derivs.is_empty()) {
                    self.scopes.alias_record(&name, k);
                }
            }
        }
    }

    /// `#include <omp.h>` and `#include <openacc.h>` become comments: the
    /// prelude (templates/p2c_runtime.cuh) declares the runtime routines so
    /// that they work in device code too, and includes the host compiler's
    /// header itself when there is one. (clang has no openacc.h; nvcc
    /// without -fopenmp would give device code the host-only declarations.)
    fn runtime_include(&mut self, n: Node<'_>) {
        let Some(path) = n.child_by_field_name("path") else {
            return;
        };
        let header = self.tree.text_of(path);
        if !matches!(header, "<omp.h>" | "<openacc.h>") {
            return;
        }
        let text = self.tree.text_of(n);
        let newline = if text.ends_with('\n') { "\n" } else { "" };
        self.edits.push(Edit::replace(
            Span::new(n.start_byte(), n.end_byte()),
            format!(
                "/* #include {header}: provided by the pragma2cuda prelude (p2c_runtime.cuh) */{newline}"
            ),
        ));
    }

    /// `((void *)0)`, C's `NULL` as the preprocessor spells it (the text of
    /// a `--preprocess` run), becomes `nullptr`: C++ does not convert
    /// `void *` to other pointer types implicitly.
    fn null_pointer_constant(&mut self, n: Node<'_>) {
        let text: String = self
            .tree
            .text_of(n)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if text == "((void*)0)" {
            self.edits.push(Edit::replace(
                Span::new(n.start_byte(), n.end_byte()),
                "nullptr",
            ));
        }
    }

    fn finish(&mut self, root: Node<'_>, namer: &mut dyn FreshName) {
        let keywords = std::mem::take(&mut self.keywords);
        keywords.finish(root, self.tree, namer, &mut self.edits, &mut self.diags);
        self.functions.finish(&mut self.edits);
        for w in &self.truth.declared {
            let new = namer.fresh(&format!("{w}_"));
            for (t, at) in &self.truth.tokens {
                if t == w {
                    self.edits.push(Edit::replace(*at, new.clone()));
                }
            }
        }
        let mut block = String::new();
        if self.c11 {
            block.push_str(c11::C11_SPELLINGS);
        }
        if self.scopes.enum_objects {
            block.push_str(c11::ENUM_OPERATORS);
        }
        if !block.is_empty() {
            self.edits.push(Edit::insert(0, 0, block));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edited(src: &str) -> (String, Vec<Diagnostic>) {
        let tree = crate::front::parse_c(src.to_string());
        let mut namer = crate::emit::namer::Namer::new(src);
        let mut diags = Vec::new();
        let plan = compat_edits(&tree, src, &[], &[], &mut namer, &mut diags);
        (
            crate::ir::edit::apply(src, Span::new(0, src.len()), &plan.edits),
            diags,
        )
    }

    /// Asserts that `out` holds each of `parts`.
    #[track_caller]
    fn assert_has(out: &str, parts: &[&str]) {
        for p in parts {
            assert!(out.contains(p), "no `{p}` in:\n{out}");
        }
    }

    #[test]
    fn void_pointer_values_are_cast() {
        let (out, d) = edited(
            "void *get(void);\nint f(void *q) { int *p; double *d; p = q; p = get(); d = calloc(2, 8); int *r = q; return *p + *r; }\n",
        );
        assert!(d.is_empty(), "{d:?}");
        assert_has(
            &out,
            &[
                "p = (int *)q;",
                "p = (int *)get();",
                "d = (double *)calloc(2, 8);",
                "int *r = (int *)q;",
            ],
        );
    }

    #[test]
    fn runtime_routines_returning_void_pointers_are_cast() {
        let (out, d) = edited(
            "int f(double *a) { double *p; p = acc_deviceptr(a); int *q = omp_target_alloc(8, 0); return *q; }\n",
        );
        assert!(d.is_empty(), "{d:?}");
        assert_has(
            &out,
            &[
                "p = (double *)acc_deviceptr(a);",
                "int *q = (int *)omp_target_alloc(8, 0);",
            ],
        );
    }

    #[test]
    fn enums_strings_and_designators() {
        let (out, d) = edited(
            "enum e { A, B };\nstruct s { int a, b; };\nvoid f(void) { enum e x = 1; x = A; char *c = \"x\"; struct s v = {.b = 1, .a = 2}; int a[3] = {[2] = 1}; }\n",
        );
        assert!(d.is_empty(), "{d:?}");
        assert_has(
            &out,
            &[
                "enum e x = (enum e)1;",
                "x = A;",
                "char *c = (char *)\"x\";",
                "struct s v = {.a = 2, .b = 1};",
                "int a[3] = {{}, {}, 1};",
                "operator++",
            ],
        );
    }

    #[test]
    fn knr_tentative_goto_and_truth() {
        let (out, d) = edited(
            "typedef enum { false, true } logical;\nint x; int x;\nint add();\nint add(a, b) int a; double b; { return a + b; }\nint g(void) { logical ok = true; goto l; int y = 3; l: return y + ok; }\n",
        );
        assert!(d.is_empty(), "{d:?}");
        assert_has(
            &out,
            &[
                "typedef enum { false_, true_ } logical;",
                "logical ok = true_;",
                "int x; extern int x;",
                "int add(int a, double b)",
                "int add(int a, double b);",
                "int y; y = 3;",
            ],
        );
    }

    #[test]
    fn refusals_name_the_construct() {
        let (_, d) = edited(
            "void f(int n, double a[n][n]) { }\nstruct t { int a; };\nvoid g(int k) { switch (k) { case 0: { } int z[2] = {1, 2}; case 1: break; } }\n",
        );
        let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(msgs[0].contains("variably modified"), "{msgs:?}");
        assert!(
            msgs[1].contains("crosses the initialization of `z`"),
            "{msgs:?}"
        );
    }
}
