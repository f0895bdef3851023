//! The file's top-level items: `extern "C"` around the ones with external
//! linkage, and C's repeated tentative definitions (`int x; int x;`), which
//! C++ reads as redefinitions.

use super::Edit;
use crate::diag::{codes, Diagnostic};
use crate::front::c::Node;
use crate::front::CTree;
use crate::sema::ctype::{declarator, specifiers, specifiers_and_declarators};
use crate::source::Span;
use std::collections::HashMap;

/// `extern "C" {` ... `}` around runs of top-level items with external
/// linkage, and around quoted includes.
pub(super) fn c_linkage(root: Node<'_>, tree: &CTree, orig: &str, edits: &mut Vec<Edit>) {
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

/// One declarator of a top-level object declaration that defines (C's
/// tentative or initialized definitions; `extern` ones declare only).
struct Definition<'t> {
    item: Node<'t>,
    at: Span,
    init: bool,
    is_static: bool,
    declarators: usize,
}

/// C allows an object to be defined tentatively several times (`int x;
/// int x;`, `static int y; ... static int y = 2;`); C++ allows one
/// definition. The definition kept is the initialized one, else the first;
/// the other (tentative) ones become `extern` declarations, or, for a
/// `static` object defined before them, are removed. A `static` object
/// declared before its initialized definition has no C++ spelling (E0501),
/// nor has a repeated one in a declaration that also declares other names.
pub(super) fn repeated_definitions(
    root: Node<'_>,
    tree: &CTree,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) {
    let text = tree.text.as_str();
    let mut by_name: HashMap<String, Vec<Definition<'_>>> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut c = root.walk();
    for item in root.children(&mut c) {
        if item.kind() != "declaration" {
            continue;
        }
        let mut ds = Vec::new();
        let (_, is_static, is_extern, is_typedef) =
            specifiers_and_declarators(item, text, Some(&mut ds));
        if is_extern || is_typedef {
            continue;
        }
        let n = ds.len();
        // The names as `declared_by` reads them (it knows C99 `_Complex`).
        let mut syms = Vec::new();
        crate::sema::symbols::declared_by(
            item,
            text,
            crate::sema::symbols::Storage::Global,
            &mut syms,
        );
        for d in ds {
            let Some((_, at, derivs)) = declarator(d, text) else {
                continue;
            };
            if derivs.first() == Some(&crate::sema::ctype::Deriv::Function) {
                continue;
            }
            let Some(name) = syms
                .iter()
                .find(|s| s.span.within(Span::new(d.start_byte(), d.end_byte())) || s.span == at)
                .map(|s| s.name.clone())
            else {
                continue;
            };
            let list = by_name.entry(name.clone()).or_default();
            if list.is_empty() {
                order.push(name);
            }
            list.push(Definition {
                item,
                at,
                init: d.kind() == "init_declarator",
                is_static,
                declarators: n,
            });
        }
    }
    for name in order {
        let defs = &by_name[&name];
        if defs.len() < 2 {
            continue;
        }
        let kept = defs.iter().position(|d| d.init).unwrap_or(0);
        for (i, d) in defs.iter().enumerate() {
            if i == kept || d.init {
                continue;
            }
            let refuse = |why: &str| {
                Diagnostic::new(
                    codes::NOT_CXX,
                    d.at,
                    format!(
                        "`{name}` is defined more than once (C's tentative definitions); {why}"
                    ),
                )
                .with_label("repeated tentative definition")
                .with_help(format!(
                    "keep one definition of `{name}`, or declare the others `extern`"
                ))
            };
            if d.declarators > 1 {
                diags.push(refuse("pragma2cuda cannot rewrite a repeated definition in a declaration that declares other names"));
            } else if !d.is_static {
                edits.push(Edit::insert(d.item.start_byte(), 30, "extern "));
            } else if i > kept {
                edits.push(Edit::replace(
                    Span::new(d.item.start_byte(), d.item.end_byte()),
                    format!("/* pragma2cuda: repeated tentative definition of `{name}` removed (C++ allows one) */"),
                ));
            } else {
                diags.push(refuse(
                    "C++ cannot declare a `static` object before its definition",
                ));
            }
        }
    }
}
