//! The kernel loop of a tiled OpenACC loop nest (`lower::tile`): the
//! grid-stride loop runs over the nest's iteration space padded to whole
//! tiles; iteration `it` is element `it % E` of tile `it / E`, each split
//! into one index per loop (innermost fastest), and iterations outside the
//! nest are skipped.

use super::region::{step_sign, unused_mark};
use crate::ir::Region;
use std::fmt::Write;

/// The loop header and the loop variables of a tiled nest, in place of the
/// flat loop's. `trip` is the nest's trip count, `per_loop` each loop's
/// (trip, lb, step) names (trips of loops after the first are kernel
/// parameters).
pub fn loop_head(
    r: &Region,
    it: &str,
    trip: &str,
    start: &str,
    stride: &str,
    per_loop: &[(String, String, String)],
    body: &str,
) -> String {
    let depth = r.nest.len();
    let e: u64 = r.tile_threads();
    let mut k = String::new();
    let sizes: Vec<String> = r.tile.iter().map(|t| t.to_string()).collect();
    let _ = writeln!(
        k,
        "    /* tile: tiles of {} iterations (outermost loop first); tile t is block t, element e thread e */",
        sizes.join(" x ")
    );
    // Each loop's trip count: the first one from the product.
    let mut trips: Vec<String> = Vec::new();
    for (d, (t, _, _)) in per_loop.iter().enumerate() {
        if d == 0 {
            if depth == 1 {
                trips.push(trip.to_string());
            } else {
                let others: Vec<&str> = per_loop[1..].iter().map(|p| p.0.as_str()).collect();
                let prod = others.join(" * ");
                let _ = writeln!(
                    k,
                    "    const unsigned long long p2c_trip_outer = ({prod}) == 0u ? 0u : {trip} / ({prod});"
                );
                trips.push("p2c_trip_outer".into());
            }
        } else {
            trips.push(t.clone());
        }
    }
    let mut tiles = Vec::new();
    for (d, size) in r.tile.iter().enumerate() {
        let _ = writeln!(
            k,
            "    const unsigned long long p2c_tiles_{d} = ({} + {size}u - 1u) / {size}u;",
            trips[d]
        );
        tiles.push(format!("p2c_tiles_{d}"));
    }
    let _ = writeln!(
        k,
        "    const unsigned long long p2c_tile_space = {} * {e}u; /* whole tiles */",
        tiles.join(" * ")
    );
    let _ = writeln!(
        k,
        "    for (unsigned long long {it} = {start}; {it} < p2c_tile_space; {it} += {stride}) {{"
    );
    let _ = writeln!(
        k,
        "        unsigned long long p2c_tile = {it} / {e}u, p2c_elem = {it} % {e}u;"
    );
    for d in (0..depth).rev() {
        let size = r.tile[d];
        let _ = writeln!(
            k,
            "        const unsigned long long p2c_at_{d} = (p2c_tile % p2c_tiles_{d}) * {size}u + p2c_elem % {size}u;"
        );
        if d > 0 {
            let _ = writeln!(
                k,
                "        p2c_tile /= p2c_tiles_{d};\n        p2c_elem /= {size}u;"
            );
        }
    }
    let outside: Vec<String> = (0..depth)
        .map(|d| format!("p2c_at_{d} >= {}", trips[d]))
        .collect();
    let _ = writeln!(
        k,
        "        if ({}) /* padding of a partial tile */\n            continue;",
        outside.join(" || ")
    );
    for (d, ((l, ty), (_, lb, step))) in r.nest.iter().zip(&r.nest_types).zip(per_loop).enumerate()
    {
        let (step, sign) = step_sign(l, step);
        let _ = writeln!(
            k,
            "        {}{} = {lb} {sign} {};",
            unused_mark(body, &l.var),
            ty.declare(&l.var),
            super::fold::scaled(&ty.type_name(), &format!("p2c_at_{d}"), &step)
        );
    }
    k
}
