//! `omp requires` (OpenMP 5.2 8.2): the translation accepts a requirement
//! only where it provides the feature, and refuses each other clause with a
//! located E0901. Accepted:
//! - `atomic_default_mem_order(order)`: the host compiler sees the directive
//!   as written (it stays in the host code) and applies it to host atomics;
//!   device atomics with no memory-order clause take the order, and every
//!   order but `relaxed` puts `__threadfence()` before and after the
//!   operation, as an explicit clause would (`lower::atomic`).
//! - `dynamic_allocators`: a permission, not a feature the program gets;
//!   allocator routines and `allocate` in offloaded regions are refused
//!   where they are used, so the requirement never changes a translation.
//!
//! Refused: `unified_address` (CUDA's unified virtual addressing would
//! provide it, but the directive stays in the host code, and gcc 12 as the
//! host compiler refuses it: "not supported yet"); `unified_shared_memory`
//! (and `self_maps`): host memory from
//! `malloc`, the stack and static storage is not accessible from the GPU
//! on most CUDA systems (only with HMM or ATS), and managed memory would
//! mean replacing every allocation of the program, its stack and static
//! variables included; `reverse_offload` (no device-to-host calls); and
//! any other requirement.

use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, Model};

/// Whether the directive is `omp requires`.
pub fn is_requires(d: &Directive) -> bool {
    d.model == Model::Omp && d.name == "requires"
}

/// Checks the clauses of one `omp requires`; true when every one is
/// provided (the directive then stays in the host code as written).
pub fn check(d: &Directive, diags: &mut Vec<Diagnostic>) -> bool {
    let mut ok = true;
    for c in &d.clauses {
        if matches!(
            c.name.as_str(),
            "atomic_default_mem_order" | "dynamic_allocators"
        ) {
            continue;
        }
        ok = false;
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                c.name_span,
                format!("`omp requires {}` is not supported yet", c.name),
            )
            .with_label("not provided by the translation")
            .with_note(why_not(&c.name)),
        );
    }
    ok
}

/// Why a requirement is refused, for the diagnostic's note.
fn why_not(name: &str) -> &'static str {
    match name {
        "unified_shared_memory" | "self_maps" => "host memory (malloc, the stack, static storage) is not accessible from the GPU on most CUDA systems, and managed memory would replace every allocation of the program; provided: `atomic_default_mem_order`, `dynamic_allocators`",
        "unified_address" => "CUDA's unified addressing would provide it, but the directive stays in the host code and gcc 12 as the host compiler does not take it; provided: `atomic_default_mem_order`, `dynamic_allocators`",
        "reverse_offload" => "the translation has no calls from the device back to the host; provided: `atomic_default_mem_order`, `dynamic_allocators`",
        _ => "provided: `atomic_default_mem_order`, `dynamic_allocators`",
    }
}

/// The memory order `atomic_default_mem_order` gives the file's OpenMP
/// atomics, if a `requires` directive sets one.
pub fn default_mem_order<'d>(directives: impl Iterator<Item = &'d Directive>) -> Option<String> {
    directives
        .filter(|d| is_requires(d))
        .flat_map(|d| d.clauses_named("atomic_default_mem_order"))
        .find_map(|c| c.keyword().map(str::to_string))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    fn parse(src: &str) -> Directive {
        crate::directives::parse_pragma(src, Span::new(0, src.len()))
            .0
            .expect("a directive")
    }

    #[test]
    fn accepts_provided_requirements_and_refuses_others() {
        let mut diags = Vec::new();
        let d = parse("#pragma omp requires atomic_default_mem_order(seq_cst)");
        assert!(check(&d, &mut diags) && diags.is_empty());
        assert_eq!(
            default_mem_order(std::iter::once(&d)).as_deref(),
            Some("seq_cst")
        );
        let d = parse("#pragma omp requires unified_shared_memory");
        assert!(!check(&d, &mut diags));
        assert_eq!(diags.len(), 1);
        assert!(diags[0].message.contains("unified_shared_memory"));
    }
}
