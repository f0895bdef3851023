//! OpenACC `tile(s1, ..., sn)` on `acc parallel loop` / `acc kernels loop`
//! / `acc serial loop` (OpenACC 3.3 2.9.8): the n tightly nested loops are
//! split into n tile loops and n element loops; the first size is the
//! innermost loop's. The tile loops are the gang level and the element
//! loops the vector level, so the lowering maps tiles to blocks and a
//! tile's elements to the block's threads: the flattened iteration space is
//! padded to whole tiles, iteration `it` is tile `it / E`, element
//! `it % E` (E = the product of the sizes), and the kernel's grid-stride
//! loop over it gives tile `t` to block `t` (modulo the grid) and element
//! `e` to thread `e` when the block has E threads, which the launch asks
//! for when no `vector_length` / `num_workers` says otherwise. Padding
//! iterations outside the nest are skipped. Why this and not a second loop
//! level: the schedule, the reductions and the launch of the flat SPMD loop
//! stay as they are (a tile is only a permutation of the iterations plus
//! skipped ones, so every reduction strategy still holds), and a tile's
//! elements are adjacent threads, so the innermost loop's tile coalesces.
//! `tile(*)` takes 32 for the innermost loop (one warp), 8 for the next and
//! 1 for the others (256 threads at most). Sizes must be constant:
//! `*` or integer literals; others are a located E0901.

use crate::diag::{codes, Diagnostic};
use crate::directives::Directive;
use crate::sema::loops::int_literal;

/// The size `*` picks for the loop at `depth_from_inner` (0 = innermost).
fn star_size(depth_from_inner: usize) -> u64 {
    match depth_from_inner {
        0 => 32,
        1 => 8,
        _ => 1,
    }
}

/// The tile sizes of `d`'s `tile` clause, outermost loop first; empty when
/// there is none.
pub fn sizes(d: &Directive) -> Result<Vec<u64>, Box<Diagnostic>> {
    let Some(c) = d.clause("tile") else {
        return Ok(vec![]);
    };
    let args: Vec<_> = c.positional_args().collect();
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let t = a.text.trim();
        let v = if t == "*" {
            star_size(i)
        } else {
            match int_literal(t) {
                Some(v) if (1..=1024).contains(&v) => v as u64,
                _ => {
                    return Err(Box::new(
                        Diagnostic::new(
                            codes::NOT_SUPPORTED,
                            a.span,
                            "a tile size that is not `*` or an integer constant from 1 to 1024 is not supported yet",
                        )
                        .with_label("not lowered yet"),
                    ))
                }
            }
        };
        out.push(v);
    }
    if out.is_empty() {
        return Err(Box::new(
            Diagnostic::new(codes::NOT_SUPPORTED, c.span, "`tile` without sizes")
                .with_label("no sizes"),
        ));
    }
    // The clause lists the innermost loop first.
    out.reverse();
    Ok(out)
}

/// The depth of the nest of a loop construct nested in a generic-mode
/// region (`acc loop tile(...)` inside `acc parallel`): there the team's
/// threads share the loop, so the tiled nest runs as the same nest
/// collapsed (a tile only reorders iterations; every order is a valid
/// execution of independent iterations). 1 without `tile`.
pub fn team_depth(d: &Directive, diags: &mut Vec<Diagnostic>) -> Option<usize> {
    match sizes(d) {
        Ok(s) if s.is_empty() => Some(1),
        Ok(s) => Some(s.len()),
        Err(e) => {
            diags.push(*e);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_sizes_and_order() {
        assert_eq!(star_size(0), 32);
        assert_eq!(star_size(1), 8);
        assert_eq!(star_size(2), 1);
        assert_eq!(crate::ir::tile_elements(&[8, 4, 2]), 64);
        assert_eq!(crate::ir::tile_elements(&[]), 1);
    }
}
