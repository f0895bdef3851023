//! Implicit conversions C allows and C++ does not, made explicit with a cast
//! where the target type is known: a `void *` value (a variable, a call of a
//! function returning one, `malloc`...) stored in another object pointer, an
//! integer stored in an enum, a string literal stored in a `char *`. The
//! places: initializers, assignments, `return`, and the arguments of a call
//! to a function the file declares.

use super::scope::{cast_name, is_object_pointer, is_void_pointer, Scopes};
use super::Edit;
use crate::diag::{codes, Diagnostic};
use crate::front::c::Node;
use crate::sema::ctype::{specifiers, CType, Deriv};
use crate::source::Span;

/// Library functions that return `void *`, for files that do not declare
/// them (the headers are not parsed).
const VOID_POINTER_FUNCTIONS: &[&str] = &[
    "malloc",
    "calloc",
    "realloc",
    "aligned_alloc",
    "memcpy",
    "memmove",
    "memset",
    "memchr",
    "bsearch",
    // OpenACC and OpenMP runtime routines (openacc.h, omp.h).
    "acc_copyin",
    "acc_present_or_copyin",
    "acc_pcopyin",
    "acc_create",
    "acc_present_or_create",
    "acc_pcreate",
    "acc_deviceptr",
    "acc_hostptr",
    "acc_malloc",
    "omp_target_alloc",
    "omp_get_mapped_ptr",
    "omp_alloc",
    "omp_aligned_alloc",
    "omp_calloc",
    "omp_aligned_calloc",
    "omp_realloc",
];

const ALLOCATORS: &[&str] = &["malloc", "calloc", "realloc", "aligned_alloc"];

fn text_of<'s>(n: Node<'_>, text: &'s str) -> &'s str {
    text.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

/// The type of an expression, where the walk can tell: names, members,
/// elements, dereferences, calls, casts to `void *`.
pub fn expr_type(n: Node<'_>, text: &str, scopes: &Scopes) -> Option<CType> {
    match n.kind() {
        "identifier" => scopes.lookup(text_of(n, text)).cloned(),
        "parenthesized_expression" => expr_type(n.named_child(0)?, text, scopes),
        "field_expression" => {
            let arg = expr_type(n.child_by_field_name("argument")?, text, scopes)?;
            let op = n.child_by_field_name("operator").map(|o| text_of(o, text));
            let record = if op == Some("->") {
                if !matches!(
                    arg.derivs.first(),
                    Some(Deriv::Pointer { .. } | Deriv::Array(_))
                ) {
                    return None;
                }
                arg.element()
            } else {
                arg
            };
            let field = text_of(n.child_by_field_name("field")?, text);
            scopes
                .members(&record)?
                .iter()
                .find(|(m, _)| m == field)
                .map(|(_, t)| t.clone())
        }
        "subscript_expression" | "pointer_expression" => {
            if n.kind() == "pointer_expression"
                && n.child_by_field_name("operator").map(|o| text_of(o, text)) != Some("*")
            {
                return None;
            }
            let arg = expr_type(n.child_by_field_name("argument")?, text, scopes)?;
            match arg.derivs.first() {
                Some(Deriv::Pointer { .. } | Deriv::Array(_)) => Some(arg.element()),
                _ => None,
            }
        }
        "call_expression" => {
            let f = n.child_by_field_name("function")?;
            let name = text_of(f, text);
            if f.kind() != "identifier" {
                return None;
            }
            match scopes.lookup(name) {
                Some(t) if t.derivs.first() == Some(&Deriv::Function) => Some(CType {
                    base: t.base.clone(),
                    derivs: t.derivs[1..].to_vec(),
                }),
                Some(_) => None,
                None if VOID_POINTER_FUNCTIONS.contains(&name) => Some(CType {
                    base: "void".into(),
                    derivs: vec![Deriv::Pointer { quals: vec![] }],
                }),
                None => None,
            }
        }
        "cast_expression" => {
            let t = n.child_by_field_name("type")?;
            let spelled: String = text_of(t, text).split_whitespace().collect();
            (spelled == "void*").then(|| CType {
                base: "void".into(),
                derivs: vec![Deriv::Pointer { quals: vec![] }],
            })
        }
        _ => None,
    }
}

/// Whether `value` is an allocator call (the case refused when the target
/// type is unknown, as it always was).
fn is_allocator_call(value: Node<'_>, text: &str) -> bool {
    value.kind() == "call_expression"
        && value
            .child_by_field_name("function")
            .is_some_and(|f| f.kind() == "identifier" && ALLOCATORS.contains(&text_of(f, text)))
}

/// Inserts a cast to `name` before `value`, in parentheses where the
/// expression binds less tightly than a cast.
fn cast(edits: &mut Vec<Edit>, value: Node<'_>, name: &str) {
    let simple = matches!(
        value.kind(),
        "identifier"
            | "call_expression"
            | "parenthesized_expression"
            | "string_literal"
            | "concatenated_string"
            | "number_literal"
            | "char_literal"
            | "field_expression"
            | "subscript_expression"
            | "true"
            | "false"
    );
    if simple {
        edits.push(Edit::insert(value.start_byte(), 50, format!("({name})")));
    } else {
        edits.push(Edit::insert(value.start_byte(), 50, format!("({name})(")));
        edits.push(Edit::insert(value.end_byte(), 50, ")"));
    }
}

/// The cast `value` needs to become a `target`, if any.
pub fn convert(
    target: Option<&CType>,
    value: Node<'_>,
    text: &str,
    scopes: &Scopes,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) {
    let spelled: String = text_of(value, text).split_whitespace().collect();
    if spelled == "((void*)0)" {
        // A preprocessed `NULL`: written `nullptr` (see `null_pointer_constant`).
        return;
    }
    let vt = expr_type(value, text, scopes);
    let Some(target) = target else {
        if is_allocator_call(value, text) {
            refuse_allocator(value, text, diags);
        }
        return;
    };
    if is_object_pointer(target) {
        if vt.as_ref().is_some_and(is_void_pointer) {
            cast(edits, value, &cast_name(target));
        } else if matches!(value.kind(), "string_literal" | "concatenated_string")
            && target.derivs.len() == 1
            && target.unqualified_base() == "char"
            && !target.is_const_base()
        {
            cast(edits, value, "char *");
        }
        return;
    }
    let Some(key) = scopes.enum_key(target) else {
        return;
    };
    let same = match value.kind() {
        "identifier" | "true" | "false" => {
            let name = text_of(value, text);
            scopes.enumerator_of(name) == Some(key)
                || vt.as_ref().and_then(|t| scopes.enum_key(t)) == Some(key)
        }
        "cast_expression" => true,
        _ => vt.as_ref().and_then(|t| scopes.enum_key(t)) == Some(key),
    };
    if !same {
        cast(edits, value, &target.unqualified_base());
    }
}

fn refuse_allocator(call: Node<'_>, text: &str, diags: &mut Vec<Diagnostic>) {
    let fname = call
        .child_by_field_name("function")
        .map(|f| text_of(f, text))
        .unwrap_or("malloc");
    diags.push(
        Diagnostic::new(
            codes::NOT_CXX,
            Span::new(call.start_byte(), call.end_byte()),
            format!(
                "the `void *` from `{fname}` is converted implicitly, which C++ does not allow"
            ),
        )
        .with_label("pragma2cuda cannot tell the target type here")
        .with_help(format!("add a cast, e.g. `(double *){fname}(...)`")),
    );
}

/// `T x = value` (not a list: see `designated`).
pub fn init_declarator(
    n: Node<'_>,
    parent: Option<Node<'_>>,
    text: &str,
    scopes: &Scopes,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) -> Option<CType> {
    let decl = parent?;
    if !matches!(decl.kind(), "declaration") {
        return None;
    }
    let (base, _, _, is_typedef) = specifiers(decl, text);
    if is_typedef {
        return None;
    }
    let (_, _, derivs) = crate::sema::ctype::declarator(n, text)?;
    let ty = CType { base, derivs };
    let value = n.child_by_field_name("value")?;
    if value.kind() != "initializer_list" {
        convert(Some(&ty), value, text, scopes, edits, diags);
    }
    Some(ty)
}

/// `left = right` (only `=`: compound assignments to an enum are the
/// prelude's operators, and to a pointer they do not convert).
pub fn assignment(
    n: Node<'_>,
    text: &str,
    scopes: &Scopes,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) {
    let op = n.child_by_field_name("operator").map(|o| text_of(o, text));
    if op != Some("=") {
        return;
    }
    let (Some(left), Some(right)) = (
        n.child_by_field_name("left"),
        n.child_by_field_name("right"),
    ) else {
        return;
    };
    let target = expr_type(left, text, scopes);
    convert(target.as_ref(), right, text, scopes, edits, diags);
}

/// `return value;` in a function returning `ret`.
pub fn return_statement(
    n: Node<'_>,
    ret: Option<&CType>,
    text: &str,
    scopes: &Scopes,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(value) = n.named_child(0) else {
        return;
    };
    if value.kind() == "comma_expression" || ret.is_none() {
        return;
    }
    convert(ret, value, text, scopes, edits, diags);
}

/// The arguments of a call to a function whose parameters the file declares.
pub fn call_arguments(
    n: Node<'_>,
    params: Option<&[CType]>,
    text: &str,
    scopes: &Scopes,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) {
    let (Some(params), Some(args)) = (params, n.child_by_field_name("arguments")) else {
        return;
    };
    let mut c = args.walk();
    let values: Vec<Node<'_>> = args
        .named_children(&mut c)
        .filter(|a| a.kind() != "comment")
        .collect();
    for (p, v) in params.iter().zip(values) {
        convert(Some(p), v, text, scopes, edits, diags);
    }
}
