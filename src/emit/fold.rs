//! Literal folding in generated loop headers (issue 20): a loop's small
//! literal bounds and a step of 1 are written as themselves, without the
//! casts and the `* (1)` / `/ (1)` that hold for any expression. Same
//! values, same types where it matters: shorter, readable code, on the host
//! and in kernels (trip counts: `emit/region.rs`'s `trip_expr`).

use crate::ir::c::CType;

/// A decimal literal from 0 to 127: the same value in every integer type
/// (`signed char` included), so `(T)(v)` may be written `v` wherever the
/// value is converted to `T` (an initializer) or compared with a `T`.
fn small_literal(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && t.bytes().all(|b| b.is_ascii_digit())
        && (t == "0" || !t.starts_with('0'))
        && t.parse::<u32>().is_ok_and(|v| v <= 127)
}

/// `(T)(text)`, or `text` alone for a small literal and an integer `T`
/// (for `_Bool`, only 0 and 1: it converts every other value to 1).
pub(crate) fn cast(ty: &CType, text: &str) -> String {
    let boolean = matches!(ty.base.trim(), "_Bool" | "bool");
    if !ty.is_pointer() && small_literal(text) && (!boolean || matches!(text.trim(), "0" | "1")) {
        text.trim().to_string()
    } else {
        format!("({})({text})", ty.type_name())
    }
}

/// Whether a loop's step is the literal `1` (spelled so: `1u` keeps its product).
pub(crate) fn unit_step(step: &str) -> bool {
    step.trim() == "1"
}

/// `(T)(index) * (step)`: a loop variable's offset from its lower bound at
/// iteration `index`; without the product for a step of 1.
pub(crate) fn scaled(type_name: &str, index: &str, step: &str) -> String {
    if unit_step(step) {
        format!("({type_name})({index})")
    } else {
        format!("({type_name})({index}) * ({step})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(base: &str, pointer: bool) -> CType {
        CType {
            base: base.into(),
            derivs: if pointer {
                vec![crate::ir::c::Deriv::Pointer { quals: vec![] }]
            } else {
                vec![]
            },
        }
    }

    #[test]
    fn small_literals_lose_their_cast_others_keep_it() {
        assert_eq!(cast(&ty("int", false), "0"), "0");
        assert_eq!(cast(&ty("unsigned char", false), " 127 "), "127");
        assert_eq!(cast(&ty("int", false), "128"), "(int)(128)");
        assert_eq!(cast(&ty("int", false), "n"), "(int)(n)");
        assert_eq!(cast(&ty("int", false), "010"), "(int)(010)");
        assert_eq!(cast(&ty("int", false), "-1"), "(int)(-1)");
        assert_eq!(cast(&ty("int", false), "1u"), "(int)(1u)");
        assert_eq!(cast(&ty("double", true), "0"), "(double *)(0)");
        assert_eq!(cast(&ty("_Bool", false), "1"), "1");
        assert_eq!(cast(&ty("_Bool", false), "2"), "(_Bool)(2)");
    }

    #[test]
    fn a_step_of_one_is_no_product() {
        assert_eq!(scaled("int", "it", "1"), "(int)(it)");
        assert_eq!(scaled("int", "it", "4"), "(int)(it) * (4)");
        assert_eq!(scaled("long", "it", "s"), "(long)(it) * (s)");
    }
}
