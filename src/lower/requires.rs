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
//! - `unified_shared_memory`: every host address is valid on the device.
//!   The translation already passes a pointer that no map clause covers by
//!   its host value (the zero-length section of OpenMP 5.2 5.8.6 that finds
//!   no mapped block), and `is_device_ptr` pointers as they are; mapped data
//!   keeps its device copies (the specification lets an implementation
//!   share or copy the storage of mapped host memory). What the requirement
//!   adds is the need for a GPU that reads and writes pageable host memory:
//!   the directive becomes a static object of the prelude
//!   (`p2c_requires_pageable`) that checks `cudaDevAttrPageableMemoryAccess`
//!   (HMM or ATS) at program start and stops with a runtime error where it
//!   is 0. Only at file scope (where C places declarative directives).
//! - `unified_address`: device pointers and host pointers share one address
//!   space, so a device pointer is a distinct address that host code may
//!   compute with. CUDA's unified virtual addressing provides it
//!   (`omp_target_alloc` returns `cudaMalloc` pointers); the directive becomes
//!   a check of `cudaDevAttrUnifiedAddressing` at program start
//!   (`p2c_requires_unified_address`).
//!
//! The last two do not stay in the host code (gcc 12 as the host compiler
//! refuses them: "not supported yet"); a comment takes the directive's place.
//! Refused: `reverse_offload` (no device-to-host calls), `self_maps` (every
//! map clause would have to share the host's storage) and any other
//! requirement.

use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, Model};

/// Whether the directive is `omp requires`.
pub fn is_requires(d: &Directive) -> bool {
    d.model == Model::Omp && d.name == "requires"
}

/// What one `omp requires` directive became: the text that replaces the
/// pragma (none: it stays as written) and the plan's notes.
#[derive(Debug, Default)]
pub struct Lowered {
    pub rewrite: Option<String>,
    pub notes: Vec<String>,
}

/// Checks the clauses of one `omp requires`; `where_` names it in runtime
/// errors (`file:line`, `line` its line), `in_function` says it is not at file scope, `text`
/// is the file's text (the clauses that stay in the host code are copied).
pub fn lower(
    d: &Directive,
    text: &str,
    where_: &str,
    line: usize,
    in_function: bool,
    diags: &mut Vec<Diagnostic>,
) -> Lowered {
    let mut checks = Vec::new();
    let mut notes = Vec::new();
    let mut kept = Vec::new();
    let before = diags.len();
    for c in &d.clauses {
        let name = c.name.as_str();
        if matches!(name, "atomic_default_mem_order" | "dynamic_allocators") {
            kept.push(text.get(c.span.start..c.span.end).unwrap_or(name));
            continue;
        }
        if let Some((object, note)) = runtime_check(name) {
            if !in_function {
                checks.push(object);
                notes.push(format!("`omp requires {name}` ({where_}): {note}"));
                continue;
            }
        }
        diags.push(refusal(c.name_span, name, in_function));
    }
    if checks.is_empty() || diags.len() != before {
        return Lowered::default();
    }
    let literal = format!("\"{}\"", crate::source::literal::c_string(where_));
    let written = text.get(d.span.start..d.span.end).unwrap_or("");
    let mut out = format!(
        "/* pragma2cuda: `{}` (checked at program start) */",
        crate::source::pragma_text::pragma_one_line(written)
    );
    for object in checks {
        let var = format!("{object}_at_line{line}");
        out.push_str(&format!("\nstatic {object} {var}({literal});"));
    }
    if !kept.is_empty() {
        out.push_str(&format!("\n#pragma omp requires {}", kept.join(" ")));
    }
    Lowered {
        rewrite: Some(out),
        notes,
    }
}

/// The prelude object that checks a requirement at program start, and the
/// plan's note on what the translation does for it.
fn runtime_check(name: &str) -> Option<(&'static str, &'static str)> {
    match name {
        "unified_shared_memory" => Some((
            "p2c_requires_pageable",
            "host memory that no map clause covers is passed to the GPU by its host address (the GPU reads and writes it in place); mapped data keeps its device copies; the program stops at start unless the GPU accesses pageable memory (cudaDevAttrPageableMemoryAccess: HMM or ATS)",
        )),
        "unified_address" => Some((
            "p2c_requires_unified_address",
            "device pointers (omp_target_alloc: cudaMalloc) and host pointers share CUDA's unified virtual address space; the program stops at start unless the GPU has it (cudaDevAttrUnifiedAddressing)",
        )),
        _ => None,
    }
}

fn refusal(span: crate::source::Span, name: &str, in_function: bool) -> Diagnostic {
    let d = Diagnostic::new(
        codes::NOT_SUPPORTED,
        span,
        format!("`omp requires {name}` is not supported yet"),
    );
    if in_function {
        d.with_label("inside a function")
            .with_note("the translation checks this requirement at program start: write the directive at file scope")
    } else {
        d.with_label("not provided by the translation")
            .with_note(why_not(name))
    }
}

/// Checks the clauses of one `omp requires`; true when every one is
/// provided by leaving the directive in the host code as written.
pub fn check(d: &Directive, diags: &mut Vec<Diagnostic>) -> bool {
    let before = diags.len();
    let lowered = lower(d, "", "", 0, false, diags);
    diags.len() == before && lowered.rewrite.is_none()
}

/// Why a requirement is refused, for the diagnostic's note.
fn why_not(name: &str) -> &'static str {
    match name {
        "self_maps" => "every map clause would have to share the host's storage instead of making device copies; provided: `atomic_default_mem_order`, `dynamic_allocators`, `unified_shared_memory`, `unified_address`",
        "reverse_offload" => "the translation has no calls from the device back to the host; provided: `atomic_default_mem_order`, `dynamic_allocators`, `unified_shared_memory`, `unified_address`",
        _ => "provided: `atomic_default_mem_order`, `dynamic_allocators`, `unified_shared_memory`, `unified_address`",
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

/// Whether an `omp requires` of the file asks for `unified_shared_memory`
/// or `unified_address`: host addresses (or device addresses the host
/// computes with) are valid on the device.
pub fn unified_memory<'d>(mut directives: impl Iterator<Item = &'d Directive>) -> bool {
    directives.any(|d| {
        is_requires(d)
            && (d.clause("unified_shared_memory").is_some()
                || d.clause("unified_address").is_some())
    })
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
        let d = parse("#pragma omp requires reverse_offload");
        assert!(!check(&d, &mut diags));
        assert_eq!(diags.len(), 1);
        assert!(diags[0].message.contains("reverse_offload"));
    }

    #[test]
    fn unified_memory_requirements_become_start_checks() {
        let src = "#pragma omp requires unified_shared_memory unified_address";
        let d = parse(src);
        let mut diags = Vec::new();
        let l = lower(&d, src, "f.c:3", 3, false, &mut diags);
        assert!(diags.is_empty());
        let text = l.rewrite.expect("a rewrite");
        assert!(text
            .contains("static p2c_requires_pageable p2c_requires_pageable_at_line3(\"f.c:3\");"));
        assert!(text.contains("static p2c_requires_unified_address"));
        // Quoted in its comment, never left as a directive.
        assert!(!text.lines().any(|l| l.trim_start().starts_with("#pragma")));
        assert_eq!(l.notes.len(), 2);
        let src = "#pragma omp requires unified_shared_memory atomic_default_mem_order(relaxed)";
        let l = lower(&parse(src), src, "f.c:1", 1, false, &mut diags);
        assert!(l
            .rewrite
            .unwrap()
            .ends_with("\n#pragma omp requires atomic_default_mem_order(relaxed)"));
        let l = lower(&d, src, "f.c:3", 3, true, &mut diags);
        assert!(l.rewrite.is_none());
        assert_eq!(diags.len(), 2);
        assert!(diags[0].message.contains("unified_shared_memory"));
    }
}
