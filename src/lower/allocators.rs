//! `uses_allocators` and `allocate` on offload constructs (OpenMP 5.2
//! 6.6, 6.8). The translation keeps each private copy where it keeps any
//! other (a register or the thread's local memory, the team's frame for
//! a generic region), which the predefined allocators allow: their memory
//! spaces and traits are hints an implementation may map to its default
//! memory, and none asks for an alignment or a fallback a program can
//! observe. So `uses_allocators` naming predefined allocators and
//! `allocate` with a predefined allocator (or none) on a privatised
//! variable are accepted and change nothing. Refused with a located E0901:
//! an allocator with user traits (`a(traits)`, `traits(...)`,
//! `memspace(...)`), any other allocator (its traits are not known at
//! translation time), and `align(...)`.

use crate::diag::{codes, Diagnostic};
use crate::directives::{Clause, ClauseArgs, Directive};
use crate::source::Span;

/// The predefined allocators of OpenMP 5.2 (table 6.3).
pub const PREDEFINED: &[&str] = &[
    "omp_default_mem_alloc",
    "omp_large_cap_mem_alloc",
    "omp_const_mem_alloc",
    "omp_high_bw_mem_alloc",
    "omp_low_lat_mem_alloc",
    "omp_cgroup_mem_alloc",
    "omp_pteam_mem_alloc",
    "omp_thread_mem_alloc",
];

/// Whether the construct's clause is one this module checks.
pub fn is_allocator_clause(name: &str) -> bool {
    matches!(name, "uses_allocators" | "allocate")
}

fn refuse(at: Span, msg: String, diags: &mut Vec<Diagnostic>) {
    diags.push(
        Diagnostic::new(codes::NOT_SUPPORTED, at, msg)
            .with_label("not honoured by the translation")
            .with_note("accepted: the predefined allocators (omp_default_mem_alloc, ..., omp_thread_mem_alloc) for privatised variables"),
    );
}

/// Checks every `uses_allocators` and `allocate` clause of `d`; pushes one
/// E0901 per thing not honoured.
pub fn check(d: &Directive, diags: &mut Vec<Diagnostic>) {
    for c in &d.clauses {
        match c.name.as_str() {
            "uses_allocators" => uses_allocators(c, diags),
            "allocate" => allocate(d, c, diags),
            _ => {}
        }
    }
}

fn uses_allocators(c: &Clause, diags: &mut Vec<Diagnostic>) {
    let text = match &c.args {
        ClauseArgs::Expr { expr, .. } => expr.text.clone(),
        _ => String::new(),
    };
    for item in top_level_items(&text) {
        if !PREDEFINED.contains(&item.as_str()) {
            refuse(
                c.name_span,
                format!("`uses_allocators({item})` (an allocator other than a predefined one, or one with traits) is not supported yet"),
                diags,
            );
        }
    }
}

/// The comma-separated items of `text` outside parentheses.
fn top_level_items(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0i32, String::new());
    for ch in text.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn allocate(d: &Directive, c: &Clause, diags: &mut Vec<Diagnostic>) {
    for m in c.modifiers() {
        let t = m.text.replace(' ', "");
        let name = t
            .strip_prefix("allocator(")
            .and_then(|r| r.strip_suffix(')'))
            .unwrap_or(&t);
        if !PREDEFINED.contains(&name) {
            refuse(
                m.span,
                format!("`allocate` with `{}` is not supported yet", m.text),
                diags,
            );
        }
    }
    let ClauseArgs::List { items, .. } = &c.args else {
        return;
    };
    let private = |v: &str| {
        d.clauses.iter().any(|o| {
            matches!(
                o.name.as_str(),
                "private" | "firstprivate" | "lastprivate" | "reduction" | "linear"
            ) && matches!(&o.args, ClauseArgs::List { items, .. } if items.iter().any(|i| i.name == v))
        })
    };
    for it in items {
        if !private(&it.name) {
            refuse(
                it.span,
                format!(
                    "`allocate({})` of a variable the construct does not privatise is not supported yet",
                    it.name
                ),
                diags,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diags_of(src: &str) -> Vec<Diagnostic> {
        let d = crate::directives::parse_pragma(src, Span::new(0, src.len()))
            .0
            .expect("a directive");
        let mut diags = Vec::new();
        check(&d, &mut diags);
        diags
    }

    #[test]
    fn predefined_allocators_are_accepted() {
        assert!(diags_of("#pragma omp target uses_allocators(omp_default_mem_alloc, omp_low_lat_mem_alloc) allocate(omp_low_lat_mem_alloc: x) firstprivate(x)").is_empty());
        assert!(diags_of(
            "#pragma omp target parallel allocate(allocator(omp_thread_mem_alloc): x) private(x)"
        )
        .is_empty());
    }

    #[test]
    fn traits_other_allocators_and_align_are_refused() {
        assert_eq!(
            diags_of("#pragma omp target uses_allocators(a(t)) allocate(a: x) private(x)").len(),
            2
        );
        assert_eq!(diags_of("#pragma omp target allocate(allocator(omp_default_mem_alloc), align(64): x) private(x)").len(), 1);
        assert_eq!(
            diags_of("#pragma omp target allocate(omp_default_mem_alloc: y) private(x)").len(),
            1
        );
    }
}
