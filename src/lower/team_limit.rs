//! The team size of a generic-mode region when a clause gives it at run
//! time: `thread_limit` / `num_threads` on `target [teams|parallel]`,
//! `num_workers` / `vector_length` on `acc parallel`.
//!
//! A constant from 1 to 1024 is folded at translation time (the block is the
//! team rounded up to whole warps, every barrier count a literal). Any other
//! expression is evaluated on the host before the launch, as the SPMD path
//! does with `p2c_at_most`: a value below 1 is a runtime error naming the
//! clause, a value above the cap is clamped. The kernel gets the team size as
//! a parameter and its blocks are that size rounded up to whole warps, so
//! the fork and join barriers count `blockDim.x`.

use crate::directives::Directive;
use crate::ir::team_limit::{Combine, RuntimeLimit, Term, MAX_THREADS};
use crate::sema::layout::Consts;

/// The clause `name` of `d`: a constant from 1 to 1024, or an expression the
/// host evaluates (any other constant too: the host reports a value below 1
/// and clamps one above 1024, as for SPMD launches).
pub fn term(consts: &Consts, d: &Directive, name: &str) -> Option<Term> {
    let e = d.clause(name)?.expr()?;
    Some(match consts.eval(&e.text) {
        Some(v) if (1..=MAX_THREADS as i128).contains(&v) => Term::Const(v as u32),
        _ => Term::Runtime(name.to_string(), e.text.clone()),
    })
}

/// The team size of the present terms: `(upper bound, runtime part)`;
/// `None` when no term is present.
pub fn combine(how: Combine, terms: &[Option<Term>]) -> Option<(u32, Option<RuntimeLimit>)> {
    let present: Vec<&Term> = terms.iter().flatten().collect();
    if present.is_empty() {
        return None;
    }
    let consts = present.iter().filter_map(|t| match t {
        Term::Const(v) => Some(*v),
        Term::Runtime(..) => None,
    });
    let cap = match how {
        Combine::Min => consts.min().unwrap_or(MAX_THREADS),
        Combine::Product => consts
            .fold(1u32, |a, v| a.saturating_mul(v))
            .min(MAX_THREADS),
    };
    let runtime: Vec<(String, String)> = present
        .iter()
        .filter_map(|t| match t {
            Term::Runtime(c, e) => Some((c.clone(), e.clone())),
            Term::Const(_) => None,
        })
        .collect();
    if runtime.is_empty() {
        return Some((cap, None));
    }
    let bound = match how {
        Combine::Min => cap,
        Combine::Product => MAX_THREADS,
    };
    Some((
        bound,
        Some(RuntimeLimit {
            combine: how,
            cap,
            terms: runtime,
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt(c: &str, e: &str) -> Option<Term> {
        Some(Term::Runtime(c.into(), e.into()))
    }

    #[test]
    fn constants_fold() {
        assert_eq!(
            combine(
                Combine::Min,
                &[Some(Term::Const(64)), Some(Term::Const(40))]
            ),
            Some((40, None))
        );
        assert_eq!(
            combine(
                Combine::Product,
                &[Some(Term::Const(4)), Some(Term::Const(32))]
            ),
            Some((128, None))
        );
        assert_eq!(combine(Combine::Min, &[None, None]), None);
    }

    #[test]
    fn runtime_min_chains_the_clamps() {
        let (bound, r) = combine(
            Combine::Min,
            &[rt("thread_limit", "n"), Some(Term::Const(64))],
        )
        .expect("present");
        assert_eq!(bound, 64);
        let r = r.expect("runtime");
        assert_eq!(
            r.host_expr("w"),
            "p2c_at_most((long long)(n), 64u, w, \"thread_limit\")"
        );
        assert_eq!(r.describe(), "min(thread_limit(n), 64)");
    }

    #[test]
    fn runtime_product_multiplies_clamped_factors() {
        let (bound, r) = combine(
            Combine::Product,
            &[rt("num_workers", "w"), Some(Term::Const(32))],
        )
        .expect("present");
        assert_eq!(bound, 1024);
        assert_eq!(
            r.expect("runtime").host_expr("at"),
            "p2c_at_most((long long)((long long)32 * (long long)p2c_at_most((long long)(w), 1024u, at, \"num_workers\")), 1024u, at, \"num_workers\")"
        );
    }
}
