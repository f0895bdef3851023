//! Placing the variables a team shares (declared in the sequential part of a
//! generic-mode region and used by a nested parallel region) in the team's
//! frame: exact offsets from exact sizes and alignments, reusing bytes
//! between variables that are never live together.
//!
//! Seed 002 mirrors the whole local stack into shared memory and reaches
//! shared variables through a preallocated list of references (160 bytes
//! per team before the first variable). Here the translator knows which
//! variables are shared and how big they are, so a team's frame holds those
//! variables and nothing else:
//!
//! * lifetimes are the variables' C scopes (from the declaration to the end
//!   of the enclosing block), so two variables of sibling blocks, or of two
//!   parallel regions that are never live together, get the same bytes;
//! * placement is first fit in decreasing alignment, which leaves no padding
//!   between variables of different alignments;
//! * when the frame exceeds the shared-memory budget, the largest variables
//!   move to a per-team frame in global memory (seed 002's stated future
//!   work) until the shared frame fits; variable-length arrays always do.

use crate::ir::staging::{Candidate, Frame, Home, Staging};

fn align_up(v: u64, a: u64) -> u64 {
    let a = a.max(1);
    v.div_ceil(a).saturating_mul(a)
}

fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// First-fit placement in decreasing alignment, then decreasing size, then
/// source order: a variable goes at the lowest aligned offset whose bytes no
/// variable with an overlapping lifetime occupies.
pub fn allocate(cands: &[Candidate]) -> Frame {
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&cands[a], &cands[b]);
        y.align
            .cmp(&x.align)
            .then(y.size.cmp(&x.size))
            .then(x.live.0.cmp(&y.live.0))
            .then(a.cmp(&b))
    });
    let mut offsets: Vec<Option<u64>> = vec![None; cands.len()];
    for &i in &order {
        let c = &cands[i];
        let busy: Vec<(u64, u64)> = (0..cands.len())
            .filter_map(|j| {
                let off = offsets[j]?;
                overlaps(c.live, cands[j].live).then_some((off, off.saturating_add(cands[j].size)))
            })
            .collect();
        let mut at = 0u64;
        loop {
            let end = at.saturating_add(c.size);
            let clash = busy
                .iter()
                .filter(|(s, e)| c.size > 0 && *s < end && at < *e)
                .map(|(_, e)| *e)
                .max();
            match clash {
                Some(e) => at = align_up(e, c.align),
                None => break,
            }
        }
        offsets[i] = Some(at);
    }
    let offsets: Vec<u64> = offsets.into_iter().map(|o| o.unwrap_or(0)).collect();
    let bytes = cands
        .iter()
        .zip(&offsets)
        .map(|(c, o)| o.saturating_add(c.size))
        .max()
        .unwrap_or(0);
    let align = cands.iter().map(|c| c.align).max().unwrap_or(1).max(1);
    Frame {
        offsets,
        bytes,
        align,
    }
}

/// Places candidates in shared memory within `budget` bytes; `forced_global`
/// marks those that must go to global memory whatever their size. Moves the
/// largest remaining variable (the later one on ties) to global memory until
/// the shared frame fits.
pub fn stage(cands: &[Candidate], forced_global: &[bool], budget: u64) -> Staging {
    let mut global: Vec<bool> = (0..cands.len())
        .map(|i| forced_global.get(i).copied().unwrap_or(false))
        .collect();
    loop {
        let idx: Vec<usize> = (0..cands.len()).filter(|i| !global[*i]).collect();
        let sub: Vec<Candidate> = idx.iter().map(|&i| cands[i].clone()).collect();
        let frame = allocate(&sub);
        if frame.bytes <= budget || idx.is_empty() {
            let gidx: Vec<usize> = (0..cands.len()).filter(|i| global[*i]).collect();
            let gsub: Vec<Candidate> = gidx.iter().map(|&i| cands[i].clone()).collect();
            let gframe = allocate(&gsub);
            let mut homes = vec![Home::Shared(0); cands.len()];
            for (k, &i) in idx.iter().enumerate() {
                homes[i] = Home::Shared(frame.offsets[k]);
            }
            for (k, &i) in gidx.iter().enumerate() {
                homes[i] = Home::Global(gframe.offsets[k]);
            }
            return Staging {
                homes,
                shared: frame,
                global: gframe,
            };
        }
        let biggest = idx
            .iter()
            .copied()
            .max_by(|&a, &b| cands[a].size.cmp(&cands[b].size).then(a.cmp(&b)));
        // `idx` is not empty here, so there is always one to move.
        if let Some(b) = biggest {
            global[b] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(size: u64, align: u64, live: (usize, usize)) -> Candidate {
        Candidate { size, align, live }
    }

    #[test]
    fn exact_bytes_no_overhead() {
        // One int: 4 bytes, nothing else.
        let f = allocate(&[c(4, 4, (0, 100))]);
        assert_eq!((f.offsets.clone(), f.bytes, f.align), (vec![0], 4, 4));
        // 64 ints all live together: 256 bytes.
        let v: Vec<Candidate> = (0..64).map(|i| c(4, 4, (i, 1000))).collect();
        let f = allocate(&v);
        assert_eq!(f.bytes, 256);
        let mut offs = f.offsets.clone();
        offs.sort();
        assert_eq!(offs, (0..64).map(|i| i * 4).collect::<Vec<u64>>());
    }

    #[test]
    fn decreasing_alignment_leaves_no_padding() {
        // char, double, char, int declared in this order: 8 + 4 + 1 + 1 = 14.
        let f = allocate(&[
            c(1, 1, (0, 99)),
            c(8, 8, (1, 99)),
            c(1, 1, (2, 99)),
            c(4, 4, (3, 99)),
        ]);
        assert_eq!(f.bytes, 14);
        assert_eq!(f.offsets, vec![12, 0, 13, 8]);
        assert_eq!(f.align, 8);
    }

    #[test]
    fn disjoint_lifetimes_share_bytes() {
        // Two arrays of sibling blocks and a scalar live across both.
        let f = allocate(&[
            c(4, 4, (0, 500)),
            c(384, 4, (10, 200)),
            c(384, 4, (250, 400)),
        ]);
        assert_eq!(f.bytes, 388);
        assert_eq!(f.offsets[1], f.offsets[2]);
        assert_ne!(f.offsets[0], f.offsets[1]);
    }

    #[test]
    fn gap_reuse_respects_every_overlap() {
        // a [0,10) and b [20,30) share offset 0; c overlaps both and must
        // avoid the union of their bytes.
        let f = allocate(&[c(8, 8, (0, 10)), c(16, 8, (20, 30)), c(8, 8, (5, 25))]);
        assert_eq!(f.offsets[1], 0);
        assert_eq!(f.offsets[0], 0);
        assert_eq!(f.offsets[2], 16);
        assert_eq!(f.bytes, 24);
    }

    #[test]
    fn budget_moves_largest_to_global() {
        let v = vec![c(4, 4, (0, 99)), c(400, 4, (1, 99)), c(40, 8, (2, 99))];
        let s = stage(&v, &[false, false, false], 64);
        assert_eq!(s.homes[1], Home::Global(0));
        assert!(matches!(s.homes[0], Home::Shared(_)));
        assert!(matches!(s.homes[2], Home::Shared(_)));
        assert_eq!(s.shared.bytes, 44);
        assert_eq!(s.global.bytes, 400);
        // Everything fits: nothing in global memory.
        let s = stage(&v, &[false, false, false], 1 << 15);
        assert_eq!(s.global.bytes, 0);
        assert_eq!(s.shared.bytes, 444);
        // Forced (a VLA) goes to global memory whatever the budget.
        let s = stage(&v, &[true, false, false], 1 << 15);
        assert_eq!(s.homes[0], Home::Global(0));
        assert_eq!(s.global.bytes, 4);
        // A zero budget moves everything.
        let s = stage(&v, &[false, false, false], 0);
        assert!(s.homes.iter().all(|h| matches!(h, Home::Global(_))));
        assert_eq!(s.shared.bytes, 0);
    }
}
