//! The central namer: every name the translator introduces goes through it,
//! so generated names never collide with the user's identifiers, with C++ or
//! CUDA reserved words, or with each other.

use crate::source::words::{identifier_tokens, CXX_ONLY_KEYWORDS};
use std::collections::{HashMap, HashSet};

/// Names CUDA's headers and built-ins take.
const CUDA_RESERVED: &[&str] = &[
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    "dim3",
    "uint3",
    "main",
];

/// Adds every identifier-like token of `text` to `out`.
fn identifiers(text: &str, out: &mut HashSet<String>) {
    // Most tokens repeat: look up before allocating.
    for t in identifier_tokens(text) {
        if !out.contains(t) {
            out.insert(t.to_string());
        }
    }
}

pub struct Namer {
    taken: HashSet<String>,
    /// Per stem, the number the next numbered name starts probing at: every
    /// `stem_k` below it is taken (names are never given back), so each
    /// number is probed once over the whole file, not once per request.
    next: HashMap<String, u64>,
    /// Numbered names probed (for the growth test).
    probes: u64,
}

impl Namer {
    /// A namer that knows every identifier-like token of `text` and of the
    /// prelude (so a generated local never hides a prelude helper).
    pub fn new(text: &str) -> Self {
        let mut taken: HashSet<String> = HashSet::new();
        for t in [
            text,
            super::templates::DEVICE_PRELUDE,
            super::templates::HOST_PRELUDE,
            super::templates::ATOMIC_PRELUDE,
        ] {
            identifiers(t, &mut taken);
        }
        taken.extend(CXX_ONLY_KEYWORDS.iter().map(|s| s.to_string()));
        taken.extend(CUDA_RESERVED.iter().map(|s| s.to_string()));
        Namer {
            taken,
            next: HashMap::new(),
            probes: 0,
        }
    }

    /// `base` if free, else `base_2`, `base_3`, ...; the name is then taken.
    /// C++ reserves every name with a double underscore, so the numbered
    /// names are built on `base` with its runs of underscores collapsed and
    /// trailing ones dropped (`new_` taken gives `new_2`, not `new__2`).
    pub fn fresh(&mut self, base: &str) -> String {
        if !self.taken.contains(base) && !base.contains("__") {
            self.taken.insert(base.to_string());
            return base.to_string();
        }
        let mut stem = String::with_capacity(base.len());
        for c in base.chars() {
            if !(c == '_' && stem.ends_with('_')) {
                stem.push(c);
            }
        }
        let stem = match stem.trim_end_matches('_') {
            "" => "p2c",
            s => s,
        };
        let mut n = self.next.get(stem).copied().unwrap_or(2);
        let mut name = String::with_capacity(stem.len() + 4);
        loop {
            self.probes += 1;
            name.clear();
            name.push_str(stem);
            name.push('_');
            push_number(&mut name, n);
            if !self.taken.contains(&name) {
                self.taken.insert(name.clone());
                self.next.insert(stem.to_string(), n + 1);
                return name;
            }
            n += 1;
        }
    }

    /// How many numbered names were probed so far.
    pub fn probes(&self) -> u64 {
        self.probes
    }
}

impl crate::ir::edit::FreshName for Namer {
    fn fresh(&mut self, base: &str) -> String {
        Namer::fresh(self, base)
    }
}

fn push_number(s: &mut String, n: u64) {
    use std::fmt::Write;
    let _ = write!(s, "{n}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A base ending in `_`, or with a run of underscores, whose plain form
    /// is taken: numbered names without `__` (this looped for ever when the
    /// C file used both `new` and `new_`, found by the fuzzer).
    #[test]
    fn numbers_bases_with_underscores_without_doubling_them() {
        let mut n = Namer::new("int new_; int a_b; int a_b_2;");
        assert_eq!(n.fresh("new_"), "new_2");
        assert_eq!(n.fresh("new_"), "new_3");
        assert_eq!(n.fresh("a___b"), "a_b_3");
        assert_eq!(n.fresh("__x"), "_x_2");
        assert_eq!(n.fresh("___"), "p2c_2");
        assert_eq!(n.fresh("fresh_one"), "fresh_one");
    }

    #[test]
    fn avoids_user_names_and_keywords() {
        let mut n = Namer::new("int saxpy_L3; int new;");
        assert_eq!(n.fresh("saxpy_L3"), "saxpy_L3_2");
        assert_eq!(n.fresh("saxpy_L3"), "saxpy_L3_3");
        assert_eq!(n.fresh("new"), "new_2");
        assert_eq!(n.fresh("k_L1"), "k_L1");
        assert_eq!(n.fresh("p2c_partials"), "p2c_partials_2");
    }

    /// A name taken by its plain form after a stem's counter passed it is
    /// still skipped; the numbers are those of probing from 2 each time.
    #[test]
    fn counters_give_the_names_probing_from_two_gives() {
        let mut n = Namer::new("int k; int k_3;");
        assert_eq!(n.fresh("k"), "k_2");
        assert_eq!(n.fresh("k_5"), "k_5");
        assert_eq!(n.fresh("k"), "k_4");
        assert_eq!(n.fresh("k"), "k_6");
        assert_eq!(n.fresh("k__"), "k_7");
    }

    /// Issue 15: the same base asked for m times probes O(m) names, not
    /// O(m^2) (each request probed every earlier number).
    #[test]
    fn repeated_bases_probe_linearly() {
        let mut n = Namer::new("int main_L1;");
        for _ in 0..2000 {
            n.fresh("main_L1");
        }
        assert!(n.probes() <= 2000, "{} probes", n.probes());
    }
}
