//! Where the private copies of an array reduction over a team live: one
//! area in global memory that the host sizes and allocates for the launch
//! (blocks x threads per block x the section's length), like the private
//! arrays' per-launch area (`lower/privarray.rs`).
//!
//! Why: the copies used to come from the device heap (`malloc` by the
//! team's thread 0), whose default size is 8 MB on CUDA, so a large
//! reduction (256 threads x a 16 K-double section is 32 MB) stopped the
//! kernel. The host knows every factor at the launch: the grid, the block
//! and the section's length, provided it is the value the construct sees.
//! That holds when every name in it is a variable from before the region
//! that the region does not assign (or a macro or enum constant) and it
//! calls no function: the host then evaluates it before the launch. A
//! length computed inside the region is refused with a located E0901
//! rather than sized on the device (the first index may be anything: the
//! construct evaluates it).
//!
//! Each block takes the slice `area + blockIdx.x * threads * len` and each
//! thread of the team its copy in it; the copies are reused by every run of
//! the construct in the block (a barrier ends each combine), so nothing is
//! allocated or freed in the kernel.

use crate::diag::Diagnostic;
use crate::ir::reduction::TeamArrayRed;
use std::collections::BTreeSet;

/// Keeps the reductions whose length the host can evaluate before the
/// launch: no name declared in the region (`locals`), none the region
/// assigns (`written`), no call other than `sizeof`. The others are
/// located E0901.
pub fn host_sized(
    reds: Vec<TeamArrayRed>,
    locals: &[String],
    written: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<TeamArrayRed> {
    reds.into_iter()
        .filter(|r| match blocker(r, locals, written) {
            None => true,
            Some(why) => {
                diags.push(
                    Diagnostic::new(
                        crate::diag::codes::NOT_SUPPORTED,
                        r.span,
                        format!(
                            "an array reduction whose length (in `{}`) {why} is not supported yet",
                            r.bounds.text
                        ),
                    )
                    .with_label("not lowered yet")
                    .with_note("the host sizes the private copies before the launch from the section's length")
                    .with_help("compute the length before the region"),
                );
                false
            }
        })
        .collect()
}

/// Why the host cannot evaluate the length of `r`'s section, if it cannot
/// (the first index is evaluated on the device at the construct: it does
/// not change the copies' size).
fn blocker(r: &TeamArrayRed, locals: &[String], written: &BTreeSet<String>) -> Option<String> {
    host_blocker("0", &r.bounds.len, locals, written)
}

/// Why the host cannot evaluate a section's first index `lo` and length
/// `len` (C expressions) before the launch, if it cannot: a name declared
/// in the region (`locals`) or assigned in it (`written`), a call.
pub fn host_blocker(
    lo: &str,
    len: &str,
    locals: &[String],
    written: &BTreeSet<String>,
) -> Option<String> {
    for e in [lo, len] {
        for name in e.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if !name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            {
                continue;
            }
            if locals.iter().any(|l| l == name) {
                return Some(format!("uses `{name}`, declared in the region,"));
            }
            if written.contains(name) {
                return Some(format!("uses `{name}`, which the region assigns,"));
            }
        }
    }
    for e in [lo, len] {
        if let Some(f) = call_in(e) {
            return Some(format!("calls `{f}`"));
        }
    }
    None
}

/// The first function called in the C expression `e` (`sizeof` is not a call).
fn call_in(e: &str) -> Option<String> {
    let b = e.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && ((b[i] as char).is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &e[start..i];
            let mut j = i;
            while j < b.len() && (b[j] as char).is_ascii_whitespace() {
                j += 1;
            }
            if j < b.len() && b[j] == b'(' && word != "sizeof" && word != "_Alignof" {
                return Some(word.to_string());
            }
        } else if c.is_ascii_digit() {
            // A number's suffix (`10u`) is no name.
            while i < b.len() && ((b[i] as char).is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::call_in;

    #[test]
    fn finds_calls_but_not_sizeof() {
        assert_eq!(call_in("n * 2"), None);
        assert_eq!(call_in("sizeof (x) / sizeof(x[0])"), None);
        assert_eq!(call_in("10u + len"), None);
        assert_eq!(call_in("lo + f (3)"), Some("f".into()));
        assert_eq!(
            call_in("omp_get_num_threads()"),
            Some("omp_get_num_threads".into())
        );
    }
}
