//! Making C valid C++ with the fewest edits.
//!
//! nvcc and clang compile `.cu` files as C++. C that is not C++ is rewritten
//! here, and only here: casts on the `void *` of malloc/calloc/realloc,
//! identifiers that are C++ keywords renamed, `extern "C"` around every
//! declaration with external linkage (so the object links with C objects) and
//! around quoted `#include`s (user headers declare C functions), and
//! `#include <omp.h>` / `<openacc.h>` replaced by the prelude's runtime API
//! (see `runtime_includes`), and `((void *)0)` (a preprocessed `NULL`) made
//! `nullptr`. `restrict`
//! and `_Bool` need no edit: the prelude spells them. C99 complex types are
//! diagnosed (E0501).

use super::edits::Edit;
use super::namer::{Namer, CXX_ONLY_KEYWORDS};
use crate::diag::{codes, Diagnostic};
use crate::front::CTree;
use crate::sema::ctype::{declarator, specifiers, CType, Deriv};
use crate::sema::symbols;
use crate::source::Span;
use std::collections::HashMap;
use tree_sitter::Node;

const ALLOCATORS: &[&str] = &["malloc", "calloc", "realloc", "aligned_alloc"];

pub fn compat_edits(
    tree: &CTree,
    orig: &str,
    namer: &mut Namer,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Edit> {
    let mut edits = Vec::new();
    let Some(root) = tree.root() else {
        return edits;
    };
    keyword_renames(root, tree, namer, &mut edits, diags);
    allocator_casts(root, tree, &mut edits, diags);
    c_linkage(root, tree, orig, &mut edits);
    runtime_includes(root, tree, &mut edits);
    null_pointer_constants(root, tree, &mut edits);
    complex_types(orig, diags);
    edits
}

/// `((void *)0)`, C's `NULL` as the preprocessor spells it (the text of a
/// `--preprocess` run), becomes `nullptr`: C++ does not convert `void *` to
/// other pointer types implicitly.
fn null_pointer_constants(root: Node<'_>, tree: &CTree, edits: &mut Vec<Edit>) {
    walk(root, &mut |n| {
        if n.kind() != "parenthesized_expression" {
            return;
        }
        let text: String = tree
            .text_of(n)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if text == "((void*)0)" {
            edits.push(Edit::replace(
                Span::new(n.start_byte(), n.end_byte()),
                "nullptr",
            ));
        }
    });
}

/// `#include <omp.h>` and `#include <openacc.h>` become comments: the prelude
/// (templates/p2c_runtime.cuh) declares the runtime routines so that they
/// work in device code too, and includes the host compiler's header itself
/// when there is one. (clang has no openacc.h; nvcc without -fopenmp would
/// give device code the host-only declarations.)
fn runtime_includes(root: Node<'_>, tree: &CTree, edits: &mut Vec<Edit>) {
    walk(root, &mut |n| {
        if n.kind() != "preproc_include" {
            return;
        }
        let Some(path) = n.child_by_field_name("path") else {
            return;
        };
        let header = tree.text_of(path);
        if !matches!(header, "<omp.h>" | "<openacc.h>") {
            return;
        }
        let text = tree.text_of(n);
        let newline = if text.ends_with('\n') { "\n" } else { "" };
        edits.push(Edit::replace(
            Span::new(n.start_byte(), n.end_byte()),
            format!(
                "/* #include {header}: provided by the pragma2cuda prelude (p2c_runtime.cuh) */{newline}"
            ),
        ));
    });
}

fn walk<'t>(n: Node<'t>, f: &mut dyn FnMut(Node<'t>)) {
    f(n);
    let mut c = n.walk();
    let kids: Vec<Node<'t>> = n.children(&mut c).collect();
    for k in kids {
        walk(k, f);
    }
}

fn keyword_renames(
    root: Node<'_>,
    tree: &CTree,
    namer: &mut Namer,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut found: Vec<(String, Span)> = Vec::new();
    walk(root, &mut |n| {
        if matches!(
            n.kind(),
            "identifier" | "field_identifier" | "type_identifier"
        ) {
            let t = tree.text_of(n);
            if CXX_ONLY_KEYWORDS.contains(&t) && !matches!(t, "true" | "false" | "bool") {
                found.push((t.to_string(), Span::new(n.start_byte(), n.end_byte())));
            }
        }
    });
    if found.is_empty() {
        return;
    }
    // Names with external linkage cannot be renamed without breaking the link.
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
    let mut renames: HashMap<String, String> = HashMap::new();
    for (name, span) in found {
        if let Some(decl) = external.get(&name) {
            if *decl == span {
                diags.push(
                    Diagnostic::new(
                        codes::NOT_CXX,
                        span,
                        format!(
                            "`{name}` is a C++ keyword and names a symbol with external linkage"
                        ),
                    )
                    .with_label("cannot be renamed without breaking the link with other C files")
                    .with_help(format!(
                        "rename `{name}` in the C sources, or make it `static`"
                    )),
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

fn allocator_casts(
    root: Node<'_>,
    tree: &CTree,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) {
    let text = tree.text.as_str();
    let mut calls = Vec::new();
    walk(root, &mut |n| {
        if n.kind() == "call_expression" {
            if let Some(f) = n.child_by_field_name("function") {
                if f.kind() == "identifier" && ALLOCATORS.contains(&tree.text_of(f)) {
                    calls.push(n);
                }
            }
        }
    });
    for call in calls {
        let Some(parent) = call.parent() else {
            continue;
        };
        let target: Option<CType> = match parent.kind() {
            "init_declarator"
                if parent.child_by_field_name("value").map(|v| v.id()) == Some(call.id()) =>
            {
                let decl = parent.parent();
                decl.and_then(|d| {
                    let (base, ..) = specifiers(d, text);
                    declarator(parent, text).map(|(_, _, derivs)| CType { base, derivs })
                })
            }
            "assignment_expression"
                if parent.child_by_field_name("right").map(|v| v.id()) == Some(call.id()) =>
            {
                let left = parent.child_by_field_name("left");
                match left {
                    Some(l) if l.kind() == "identifier" => {
                        let syms = symbols::visible_at(root, text, parent);
                        syms.get(tree.text_of(l)).map(|s| s.ty.clone())
                    }
                    _ => None,
                }
            }
            "cast_expression" | "argument_list" | "return_statement" | "expression_statement" => {
                continue
            }
            _ => None,
        };
        match target {
            Some(t) if matches!(t.derivs.first(), Some(Deriv::Pointer { .. })) => {
                if t.base.split_whitespace().any(|w| w == "void") && t.derivs.len() == 1 {
                    continue;
                }
                // Drop the pointer's own qualifiers: the cast names the value's type.
                let mut ty = t.clone();
                if let Some(Deriv::Pointer { quals }) = ty.derivs.first_mut() {
                    quals.clear();
                }
                edits.push(Edit::insert(
                    call.start_byte(),
                    50,
                    format!("({})", ty.type_name()),
                ));
            }
            _ => {
                let fname = call
                    .child_by_field_name("function")
                    .map(|f| tree.text_of(f))
                    .unwrap_or("malloc");
                diags.push(
                    Diagnostic::new(codes::NOT_CXX, Span::new(call.start_byte(), call.end_byte()), format!("the `void *` from `{fname}` is converted implicitly, which C++ does not allow"))
                        .with_label("pragma2cuda cannot tell the target type here")
                        .with_help(format!("add a cast, e.g. `(double *){fname}(...)`")),
                );
            }
        }
    }
}

/// `extern "C" {` ... `}` around runs of top-level items with external
/// linkage, and around quoted includes.
fn c_linkage(root: Node<'_>, tree: &CTree, orig: &str, edits: &mut Vec<Edit>) {
    let text = tree.text.as_str();
    let mut c = root.walk();
    let items: Vec<Node<'_>> = root.children(&mut c).collect();
    let eligible = |n: Node<'_>| -> bool {
        match n.kind() {
            // `main` must not have a language linkage.
            "function_definition" => {
                !specifiers(n, text).1
                    && crate::front::function_name(n, text).as_deref() != Some("main")
            }
            "declaration" => {
                let (_, is_static, ..) = specifiers(n, text);
                !is_static
            }
            "preproc_include" => n
                .child_by_field_name("path")
                .map(|p| p.kind() == "string_literal")
                .unwrap_or(false),
            _ => false,
        }
    };
    let mut i = 0;
    while i < items.len() {
        if !eligible(items[i]) {
            i += 1;
            continue;
        }
        let start = items[i].start_byte();
        let mut end = items[i].end_byte();
        let mut j = i + 1;
        while j < items.len()
            && eligible(items[j])
            && items[j].kind() != "preproc_include"
            && items[j - 1].kind() != "preproc_include"
        {
            let gap = &orig[end..items[j].start_byte()];
            if gap.contains('#') {
                break;
            }
            end = items[j].end_byte();
            j += 1;
        }
        if items[i].kind() == "preproc_include" {
            // The include node ends after its newline.
            edits.push(Edit::insert(start, 20, "extern \"C\" {\n"));
            edits.push(Edit::insert(end, 0, "}\n"));
        } else {
            edits.push(Edit::insert(start, 20, "extern \"C\" {\n"));
            edits.push(Edit::insert(end, 0, "\n} /* extern \"C\" */"));
        }
        i = j;
    }
}

/// `text` with comments and string and character literals blanked out.
fn without_comments_and_strings(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let (skip_to, keep) = match (b[i], b.get(i + 1)) {
            (b'/', Some(b'*')) => (
                text[i + 2..]
                    .find("*/")
                    .map(|k| i + 2 + k + 2)
                    .unwrap_or(b.len()),
                false,
            ),
            (b'/', Some(b'/')) => (
                text[i..].find('\n').map(|k| i + k).unwrap_or(b.len()),
                false,
            ),
            (q @ (b'"' | b'\''), _) => {
                let mut j = i + 1;
                while j < b.len() && b[j] != q && b[j] != b'\n' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                ((j + 1).min(b.len()), false)
            }
            _ => (i + 1, true),
        };
        if keep {
            out.push(b[i]);
        } else {
            out.push(b' ');
        }
        i = skip_to.max(i + 1);
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn complex_types(orig: &str, diags: &mut Vec<Diagnostic>) {
    // Including <complex.h> is harmless in C++ when nothing of it is used
    // (C++ maps it to <complex>); using it is not: `complex`, `I` and the
    // c* functions mean other things there.
    const COMPLEX_NAMES: &[&str] = &[
        "complex",
        "I",
        "_Complex_I",
        "CMPLX",
        "CMPLXF",
        "creal",
        "crealf",
        "cimag",
        "cimagf",
        "cabs",
        "cabsf",
        "carg",
        "cargf",
        "conj",
        "conjf",
        "cexp",
        "cexpf",
        "clog",
        "clogf",
        "cpow",
        "cpowf",
        "csqrt",
        "csqrtf",
        "cproj",
        "cprojf",
    ];
    let code = without_comments_and_strings(orig).replace("<complex.h>", "");
    let uses_complex = COMPLEX_NAMES
        .iter()
        .any(|w| crate::source::mask::mentions_word(&code, w));
    let is_include = |i: usize| {
        let line_start = orig[..i].rfind('\n').map(|k| k + 1).unwrap_or(0);
        let head = orig[line_start..i].trim_start();
        head.strip_prefix('#')
            .is_some_and(|h| h.trim_start().trim_end() == "include")
    };
    for (i, _) in orig
        .match_indices("<complex.h>")
        .filter(|(i, _)| uses_complex && is_include(*i))
    {
        diags.push(
            Diagnostic::new(
                codes::NOT_CXX,
                Span::new(i, i + 11),
                "<complex.h> is not supported yet",
            )
            .with_label("C99 complex")
            .with_help("C++ reads <complex.h> as <complex>: the file's complex names would mean std::complex"),
        );
    }
}
