//! Whether a loop nest may take a 32-bit iteration counter: the decision
//! behind `Region::narrow_counter` and `WsLoop::narrow_counter`, which
//! `emit/counter.rs` spells (and where the measurements are).

use crate::sema::arith::{classify, Arith};
use crate::sema::symbols::Scope;
use crate::sema::CType;

/// Whether a loop nest with variables of these types has fewer than 2^32
/// iterations unless a loop overflows its variable: one loop, over an
/// integer of at most 32 bits (its written base type; a typedef is not
/// looked through).
pub fn narrow_nest(types: &[CType]) -> bool {
    matches!(types, [t] if t.derivs.is_empty()
        && matches!(classify(&t.base, &Scope::default()), Some(Arith::Int { bytes, .. }) if bytes <= 4))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(base: &str) -> CType {
        CType {
            base: base.into(),
            derivs: vec![],
        }
    }

    #[test]
    fn one_loop_over_a_32_bit_integer_is_narrow() {
        assert!(narrow_nest(&[ty("int")]));
        assert!(narrow_nest(&[ty("unsigned")]));
        assert!(narrow_nest(&[ty("short")]));
    }

    #[test]
    fn wider_variables_nests_and_pointers_are_not() {
        assert!(!narrow_nest(&[ty("long")]));
        assert!(!narrow_nest(&[ty("unsigned long long")]));
        assert!(!narrow_nest(&[ty("int"), ty("int")]));
        assert!(!narrow_nest(&[]));
        let ptr = CType {
            base: "int".into(),
            derivs: vec![crate::sema::Deriv::Pointer { quals: vec![] }],
        };
        assert!(!narrow_nest(&[ptr]));
    }
}
