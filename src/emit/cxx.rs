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

/// The edits that make the C file valid C++. `offloaded` are the spans of
/// the offloaded regions (pragma to end of statement), where a renamed
/// variable cannot be renamed yet (see `keyword_renames`).
pub fn compat_edits(
    tree: &CTree,
    orig: &str,
    offloaded: &[Span],
    namer: &mut Namer,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Edit> {
    let mut edits = Vec::new();
    let Some(root) = tree.root() else {
        return edits;
    };
    keyword_renames(root, tree, offloaded, namer, &mut edits, diags);
    allocator_casts(root, tree, &mut edits, diags);
    c_linkage(root, tree, orig, &mut edits);
    runtime_includes(root, tree, &mut edits);
    null_pointer_constants(root, tree, &mut edits);
    complex_edits(orig, &mut edits, diags);
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

/// C++ keywords used as C names (`new`, `class`, `this`) are renamed
/// (`new_`), except names with external linkage (E0501). A variable so named
/// that an offloaded region uses is refused there (E0501, once per name and
/// region): the kernel's parameters and the launch's arguments are written
/// from the variable's name, not from the renamed text, so the CUDA would
/// not compile.
fn keyword_renames(
    root: Node<'_>,
    tree: &CTree,
    offloaded: &[Span],
    namer: &mut Namer,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut found: Vec<(String, Span)> = Vec::new();
    let mut in_region: Vec<(String, Span)> = Vec::new();
    walk(root, &mut |n| {
        if matches!(
            n.kind(),
            "identifier" | "field_identifier" | "type_identifier"
        ) {
            let t = tree.text_of(n);
            if CXX_ONLY_KEYWORDS.contains(&t) && !matches!(t, "true" | "false" | "bool") {
                let span = Span::new(n.start_byte(), n.end_byte());
                if n.kind() == "identifier" {
                    if let Some(r) = offloaded.iter().find(|r| span.within(**r)) {
                        if !in_region
                            .iter()
                            .any(|(name, at)| name == t && at.within(*r))
                        {
                            in_region.push((t.to_string(), span));
                        }
                    }
                }
                found.push((t.to_string(), span));
            }
        }
    });
    for (name, span) in in_region {
        diags.push(
            Diagnostic::new(
                codes::NOT_CXX,
                span,
                format!("`{name}` is a C++ keyword: pragma2cuda renames it in host code, but not yet in an offloaded region"),
            )
            .with_label("used in an offloaded region")
            .with_help(format!("rename `{name}` in the C source")),
        );
    }
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

/// `text` with comments and string and character literals blanked out,
/// byte for byte (offsets are kept; newlines stay).
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
        let end = skip_to.max(i + 1).min(b.len());
        if keep {
            out.push(b[i]);
        } else {
            out.extend(b[i..end].iter().map(|&c| if c == b'\n' { c } else { b' ' }));
        }
        i = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Spellings for files that use C99 complex numbers, placed after the C-to-C++
/// spellings (see [`uses_complex`]). C++ compilers (g++, clang++, nvcc) accept
/// `float _Complex` and `__real__`/`__imag__` as extensions, but read an
/// imaginary constant (`1.0iF`, what glibc's `I` expands to) as a
/// user-defined literal: [`complex_edits`] rewrites each one as a call of
/// `p2c_imaginary_f` / `p2c_imaginary_d`, which builds the value part by part
/// (nvcc has no device conversion from a real to a complex value).
pub const COMPLEX_COMPAT: &str = r#"/* ---- pragma2cuda C99 complex spellings (emit/cxx.rs) ----
 * An imaginary constant `v i` of the C source is written p2c_imaginary_f(v) (float)
 * or p2c_imaginary_d(v) (double): C++ reads `1.0iF` as a user-defined literal.
 */
inline namespace p2c_prelude_1 {
__host__ __device__ inline float _Complex p2c_imaginary_f(float v)
{
    float _Complex z;
    __real__ z = 0.0f;
    __imag__ z = v;
    return z;
}
__host__ __device__ inline double _Complex p2c_imaginary_d(double v)
{
    double _Complex z;
    __real__ z = 0.0;
    __imag__ z = v;
    return z;
}
}
/* ---- end of C99 complex spellings ---- */
"#;

/// Inserted after `#include <complex.h>`: C++'s <complex.h> is <complex>
/// (plus glibc's declarations only in GNU modes), so C99's names are
/// spelled here: `I` through `_Complex_I`, `complex`, and the part accessors
/// as `__real__` / `__imag__` (which also work in device code).
const COMPLEX_H_AFTER: &str = "\n/* pragma2cuda: C99's <complex.h> names in C++ */\n\
#undef _Complex_I\n#define _Complex_I (p2c_imaginary_f(1.0f))\n#ifndef I\n#define I _Complex_I\n#endif\n\
#ifndef complex\n#define complex _Complex\n#endif\n\
#undef creal\n#define creal(z) (__real__ (z))\n#undef crealf\n#define crealf(z) (__real__ (z))\n\
#undef creall\n#define creall(z) (__real__ (z))\n#undef cimag\n#define cimag(z) (__imag__ (z))\n\
#undef cimagf\n#define cimagf(z) (__imag__ (z))\n#undef cimagl\n#define cimagl(z) (__imag__ (z))";

/// Whether the file needs [`COMPLEX_COMPAT`]: it spells a complex type,
/// includes <complex.h> or writes an imaginary constant.
pub fn uses_complex(orig: &str) -> bool {
    let code = without_comments_and_strings(orig);
    orig.contains("<complex.h>")
        || crate::source::mask::mentions_word(&code, "_Complex")
        || !imaginary_constants(&code).is_empty()
}

/// The imaginary constants of `code` (comments and strings blanked): spans
/// and whether each is a `float` one (an `f`/`F` suffix).
fn imaginary_constants(code: &str) -> Vec<(Span, String, bool)> {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = (b[i].is_ascii_digit()
            || (b[i] == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit()))
            && (i == 0 || !(ident(b[i - 1]) || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let start = i;
        let hex = b[i] == b'0' && i + 1 < b.len() && matches!(b[i + 1], b'x' | b'X');
        while i < b.len() {
            let c = b[i];
            let exp = if hex {
                matches!(c, b'p' | b'P')
            } else {
                matches!(c, b'e' | b'E')
            };
            if exp && i + 1 < b.len() && matches!(b[i + 1], b'+' | b'-') {
                i += 2;
            } else if ident(c) || c == b'.' {
                i += 1;
            } else {
                break;
            }
        }
        let tok = &code[start..i];
        let suffix_at = tok
            .rfind(|c: char| {
                !matches!(c, 'i' | 'I' | 'j' | 'J' | 'f' | 'F' | 'l' | 'L' | 'u' | 'U')
                    || (hex && c.is_ascii_hexdigit())
            })
            .map(|k| k + 1)
            .unwrap_or(0);
        let (num, suffix) = tok.split_at(suffix_at);
        if suffix.contains(['i', 'I', 'j', 'J']) && !num.is_empty() {
            let float = !hex && suffix.contains(['f', 'F']);
            let real: String = suffix
                .chars()
                .filter(|c| matches!(c, 'f' | 'F' | 'u' | 'U'))
                .collect();
            out.push((Span::new(start, i), format!("{num}{real}"), float));
        }
    }
    out
}

/// The C99 complex edits: imaginary constants become `p2c_imaginary_f/d`
/// calls; after `#include <complex.h>`, glibc's `_Complex_I` (and so `I`)
/// is redefined the same way and `complex` means `_Complex` again (C++'s
/// <complex.h> undefines it). `CMPLX`, `CMPLXF`, `CMPLXL` stay E0501: they
/// expand to `__builtin_complex`, which C++ compilers do not have.
fn complex_edits(orig: &str, edits: &mut Vec<Edit>, diags: &mut Vec<Diagnostic>) {
    let code = without_comments_and_strings(orig);
    for (span, num, float) in imaginary_constants(&code) {
        let f = if float { "f" } else { "d" };
        edits.push(Edit::replace(span, format!("p2c_imaginary_{f}({num})")));
    }
    let is_include = |i: usize| {
        let line_start = orig[..i].rfind('\n').map(|k| k + 1).unwrap_or(0);
        let head = orig[line_start..i].trim_start();
        head.strip_prefix('#')
            .is_some_and(|h| h.trim_start().trim_end() == "include")
    };
    for (i, _) in orig
        .match_indices("<complex.h>")
        .filter(|(i, _)| is_include(*i))
    {
        let eol = orig[i..].find('\n').map(|k| i + k).unwrap_or(orig.len());
        edits.push(Edit::insert(eol, 0, COMPLEX_H_AFTER));
    }
    for w in ["CMPLX", "CMPLXF", "CMPLXL"] {
        let mut from = 0;
        while let Some(k) = code[from..].find(w) {
            let at = from + k;
            from = at + w.len();
            let before_ok = at == 0 || {
                let c = code.as_bytes()[at - 1];
                !(c.is_ascii_alphanumeric() || c == b'_')
            };
            let after_ok = code[from..]
                .chars()
                .next()
                .map_or(true, |c| !(c.is_ascii_alphanumeric() || c == '_'));
            if before_ok && after_ok {
                diags.push(
                    Diagnostic::new(
                        codes::NOT_CXX,
                        Span::new(at, from),
                        format!("`{w}` from <complex.h> is not supported yet"),
                    )
                    .with_label("expands to __builtin_complex, which C++ compilers lack")
                    .with_help("build the value from its parts: `__real__ z = x; __imag__ z = y;`"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imag(code: &str) -> Vec<(String, String, bool)> {
        imaginary_constants(code)
            .into_iter()
            .map(|(sp, num, f)| (code[sp.start..sp.end].to_string(), num, f))
            .collect()
    }

    #[test]
    fn imaginary_constants_are_found_and_split() {
        assert_eq!(
            imag("z = 10 + 10 * (__extension__ 1.0iF);"),
            [("1.0iF".to_string(), "1.0F".to_string(), true)]
        );
        assert_eq!(
            imag("a = 2i + 3.5e-2fi + .5j;"),
            [
                ("2i".to_string(), "2".to_string(), false),
                ("3.5e-2fi".to_string(), "3.5e-2f".to_string(), true),
                (".5j".to_string(), ".5".to_string(), false),
            ]
        );
        // Not imaginary: plain literals, identifiers with digits, hex digits.
        assert!(imag("x1i = 1.0f + 2u + 0x1f + 3L + a2i;").is_empty());
    }

    #[test]
    fn blanking_keeps_offsets() {
        let t = "a /* c */ \"s\" // x\nb 'q'";
        let b = without_comments_and_strings(t);
        assert_eq!(b.len(), t.len());
        assert_eq!(b.find('b'), t.find("\nb").map(|i| i + 1));
    }
}
