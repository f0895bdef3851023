//! E0304 `reduction_type`: the operator must be defined for the variable.
//!
//! A reduction combines private copies with its operator, so the variable's
//! type (the element type, for an array or an array section) must support
//! it: `+ * - && || min max` need an arithmetic type (`min` and `max` not a
//! complex one), `& | ^` an integer type. Structures, unions and pointers
//! cannot be reduced with a built-in operator in OpenMP (OpenACC allows a
//! composite variable whose members are all reducible; pragma2cuda does not
//! lower that yet), and a `const` variable cannot be reduced at all.
//!
//! Types the file cannot describe (a typedef from a header pragma2cuda does
//! not read) are not checked.
//!
//! Bad:
//!
//! ```c
//! double sum = 0;
//! #pragma omp target teams distribute parallel for reduction(^: sum)
//! for (int i = 0; i < n; i++) sum ^= a[i];
//! ```
//!
//! Fix: `^` is bitwise; reduce an integer, or use `+` for a floating sum.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::Model;
use crate::sema::symbols::Visible;
use crate::sema::CType;

pub const CODES: &[Code] = &[codes::BAD_REDUCTION_TYPE];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Integer,
    Floating,
    Complex,
    /// struct / union
    Composite,
    Pointer,
    /// Not known here (a typedef from a header).
    Unknown,
}

const INTEGER_WORDS: &[&str] = &[
    "char", "short", "int", "long", "signed", "unsigned", "_Bool", "bool",
];

const INTEGER_TYPEDEFS: &[&str] = &[
    "size_t",
    "ssize_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "intmax_t",
    "uintmax_t",
];

/// The class of a type, following typedefs declared in the file.
fn class_of(ty: &CType, symbols: &Visible, depth: usize) -> Class {
    if ty.is_pointer() {
        return Class::Pointer;
    }
    let base = ty.unqualified_base();
    let words: Vec<&str> = base
        .split_whitespace()
        .filter(|w| !matches!(*w, "static" | "extern" | "register" | "_Thread_local"))
        .collect();
    if words.iter().any(|w| matches!(*w, "struct" | "union")) {
        return Class::Composite;
    }
    if words.iter().any(|w| matches!(*w, "_Complex" | "complex")) {
        return Class::Complex;
    }
    if words.iter().any(|w| matches!(*w, "float" | "double")) {
        return Class::Floating;
    }
    if words.first() == Some(&"enum") {
        return Class::Integer;
    }
    if !words.is_empty() && words.iter().all(|w| INTEGER_WORDS.contains(w)) {
        return Class::Integer;
    }
    if let [one] = words.as_slice() {
        if INTEGER_TYPEDEFS.contains(one) {
            return Class::Integer;
        }
        if let Some(t) = symbols.get(one).filter(|s| s.is_typedef) {
            if depth < 8 {
                return class_of(&t.ty, symbols, depth + 1);
            }
        }
    }
    Class::Unknown
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        let reductions: Vec<_> = d
            .clauses
            .iter()
            .filter_map(|c| spec::reduction_identifier(c).map(|id| (c, id)))
            .filter(|(_, id)| spec::reduction_operators(d.model).contains(&id.text.as_str()))
            .collect();
        if reductions.is_empty() {
            continue;
        }
        let Some(symbols) = cx.symbols_at(i) else {
            continue;
        };
        for (c, op) in reductions {
            for item in c.items() {
                if !item.path.is_empty() {
                    continue;
                }
                let Some(sym) = symbols.get(&item.name) else {
                    continue;
                };
                if sym.is_typedef || sym.ty.is_function() {
                    continue;
                }
                // The element type: one derivation per subscript; a whole
                // array reduces element by element.
                let mut ty = sym.ty.clone();
                for _ in 0..item.sections.len() {
                    ty = ty.element();
                }
                while ty.is_array() {
                    ty = ty.element();
                }
                let class = class_of(&ty, &symbols, 0);
                let op_text = op.text.as_str();
                let (ok, need) = match class {
                    Class::Unknown => (true, ""),
                    Class::Integer => (true, ""),
                    Class::Floating => (
                        !matches!(op_text, "&" | "|" | "^"),
                        "an integer type (`&`, `|` and `^` are bitwise)",
                    ),
                    Class::Complex => (
                        !matches!(op_text, "&" | "|" | "^" | "min" | "max"),
                        "an ordered arithmetic type",
                    ),
                    Class::Composite => (d.model == Model::Acc, "an arithmetic scalar"),
                    Class::Pointer => (false, "an arithmetic scalar"),
                };
                let constant = ty.is_const_base() && class != Class::Pointer;
                if ok && !constant {
                    continue;
                }
                let diag = if constant {
                    Diagnostic::new(
                        codes::BAD_REDUCTION_TYPE,
                        item.name_span,
                        format!("cannot reduce `{}`: it is const", item.name),
                    )
                    .with_label("const variable")
                } else {
                    let label = if need == "an arithmetic scalar" {
                        "not an arithmetic scalar".to_string()
                    } else {
                        format!("`{op_text}` needs {need}")
                    };
                    Diagnostic::new(
                        codes::BAD_REDUCTION_TYPE,
                        item.name_span,
                        format!(
                            "cannot reduce `{}` of type `{}` with `{op_text}`",
                            item.name,
                            sym.ty.type_name()
                        ),
                    )
                    .with_label(label)
                };
                out.push(i, diag.with_secondary(sym.span, "declared here"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn operator_and_type() {
        let src = "struct pair { int lo, hi; };\n\
            typedef float real;\n\
            void f(int n, double *a, double s, int k, real r, struct pair p, const int c, int v[8]) {\n\
            #pragma omp target teams distribute parallel for reduction(^: s) reduction(+: k)\n\
            for (int i = 0; i < n; i++) { s += a[i]; k ^= i; }\n\
            #pragma omp parallel for reduction(|: r) reduction(max: p)\n\
            for (int i = 0; i < n; i++) r += a[i];\n\
            #pragma omp parallel for reduction(+: c, a, v[0:8])\n\
            for (int i = 0; i < n; i++) k += c;\n\
            #pragma acc parallel loop reduction(+: p) reduction(&: k)\n\
            for (int i = 0; i < n; i++) p.lo += i;\n\
            }\n";
        assert_codes("reduction_type", src, "E0304", &[4, 6, 6, 8, 8]);
    }
}
