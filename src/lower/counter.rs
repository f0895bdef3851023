//! Whether a loop nest may take a 32-bit iteration counter: the decision
//! behind `Region::narrow_counter` and `WsLoop::narrow_counter`, which
//! `emit/counter.rs` spells (and where the measurements are).

use crate::sema::arith::{classify, Arith};
use crate::sema::layout::Consts;
use crate::sema::loops::{CanonLoop, TestOp};
use crate::sema::symbols::Scope;
use crate::sema::CType;

/// Whether a loop nest with variables of these types has fewer than 2^32
/// iterations unless a loop overflows its variable: one loop, over an
/// integer of at most 32 bits (its written base type; a typedef is not
/// looked through).
pub fn narrow_nest(types: &[CType]) -> bool {
    matches!(types, [t] if narrow_type(t))
}

/// An integer of at most 32 bits (its written base type).
fn narrow_type(t: &CType) -> bool {
    t.derivs.is_empty()
        && matches!(classify(&t.base, &Scope::default()), Some(Arith::Int { bytes, .. }) if bytes <= 4)
}

/// The most iterations a collapsed nest of constant bounds may have to take
/// a 32-bit counter: 2^31, so that the count plus every thread of a launch
/// (below 2^31) stays within 32 bits and the host's check never fails.
const CONST_NEST_LIMIT: i128 = 1 << 31;

/// Whether a collapsed nest (two loops or more) over integers of at most 32
/// bits has constant bounds and steps (literals, or macros the file defines
/// once and never tests with `#ifdef`, `#ifndef` or `defined`, which a
/// command line could redefine) whose product of trip counts is at most
/// 2^31: then its flat counter, and the divisions that give each loop's
/// variable, may have 32 bits (clang-19 decides so too: a 32-bit counter
/// where the nest's constant count fits). The host still checks the count
/// (`emit/counter.rs`), so a wrong guess is a located run-time failure, never
/// a wrapped counter.
pub fn narrow_const_nest(types: &[CType], nest: &[CanonLoop], consts: &Consts, text: &str) -> bool {
    if nest.len() < 2 || types.len() != nest.len() || !types.iter().all(narrow_type) {
        return false;
    }
    let mut total: i128 = 1;
    for l in nest {
        let Some(trip) = const_trip(l, consts, text) else {
            return false;
        };
        total = total.saturating_mul(trip);
    }
    total <= CONST_NEST_LIMIT
}

/// A loop's trip count when its bounds and step are constants.
fn const_trip(l: &CanonLoop, consts: &Consts, text: &str) -> Option<i128> {
    let value = |e: &str| {
        if names_tested_macro(e, text) {
            return None;
        }
        consts.eval(e)
    };
    let (lb, ub, step) = (value(&l.lb)?, value(&l.ub)?, value(&l.step)?);
    if step <= 0 {
        return None;
    }
    let span = match l.test {
        TestOp::Lt => ub - lb,
        TestOp::Le => ub - lb + 1,
        TestOp::Gt => lb - ub,
        TestOp::Ge => lb - ub + 1,
    };
    Some(if span <= 0 {
        0
    } else {
        (span + step - 1) / step
    })
}

/// Whether `expr` names an identifier that the file tests with `#ifdef`,
/// `#ifndef` or `defined`: a default a command line's `-D` may replace.
fn names_tested_macro(expr: &str, text: &str) -> bool {
    expr.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .any(|w| {
            text.lines().any(|line| {
                let l = line.trim_start();
                let Some(d) = l.strip_prefix('#') else {
                    return false;
                };
                let d = d.trim_start();
                (d.starts_with("if") || d.starts_with("elif"))
                    && d.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .any(|t| t == w)
            })
        })
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

    fn lp(lb: &str, ub: &str, test: TestOp, step: &str) -> CanonLoop {
        let span = crate::source::Span::new(0, 0);
        CanonLoop {
            var: "i".into(),
            var_span: span,
            declared_type: None,
            lb: lb.into(),
            ub: ub.into(),
            test,
            written_test: test.as_str().into(),
            step: step.into(),
            literal_step: true,
            span,
            body: span,
        }
    }

    #[test]
    fn constant_nests_that_fit_in_31_bits_are_narrow() {
        let text = "#define N 7\n#define M (N * 2)\n";
        let consts = Consts::from_text(text);
        let ints = [ty("int"), ty("int")];
        let nest = [lp("0", "N", TestOp::Lt, "1"), lp("1", "M", TestOp::Le, "3")];
        assert!(narrow_const_nest(&ints, &nest, &consts, text));
        // 2^16 * 2^15 = 2^31 fits; one more row does not.
        let big = [
            lp("0", "65536", TestOp::Lt, "1"),
            lp("32768", "0", TestOp::Gt, "1"),
        ];
        assert!(narrow_const_nest(&ints, &big, &consts, text));
        let bigger = [
            lp("0", "65537", TestOp::Lt, "1"),
            lp("32768", "0", TestOp::Gt, "1"),
        ];
        assert!(!narrow_const_nest(&ints, &bigger, &consts, text));
        // One loop is `narrow_nest`'s.
        assert!(!narrow_const_nest(&ints[..1], &nest[..1], &consts, text));
    }

    #[test]
    fn runtime_or_overridable_bounds_and_wide_variables_are_not() {
        let text = "#ifndef N\n#define N 7\n#endif\n#define M 5\n";
        let consts = Consts::from_text(text);
        let ints = [ty("int"), ty("int")];
        let tested = [lp("0", "N", TestOp::Lt, "1"), lp("0", "M", TestOp::Lt, "1")];
        assert!(!narrow_const_nest(&ints, &tested, &consts, text));
        let runtime = [lp("0", "n", TestOp::Lt, "1"), lp("0", "M", TestOp::Lt, "1")];
        assert!(!narrow_const_nest(&ints, &runtime, &consts, text));
        let triangular = [lp("0", "M", TestOp::Lt, "1"), lp("i", "M", TestOp::Lt, "1")];
        assert!(!narrow_const_nest(&ints, &triangular, &consts, text));
        let fixed = [lp("0", "M", TestOp::Lt, "1"), lp("0", "M", TestOp::Lt, "1")];
        assert!(narrow_const_nest(&ints, &fixed, &consts, text));
        assert!(!narrow_const_nest(
            &[ty("int"), ty("long")],
            &fixed,
            &consts,
            text
        ));
    }
}
