//! `#define` / `#undef` lines inside a function, before one of its regions.
//!
//! A region's kernel is placed above its function, where a macro the
//! function defines before the region is not defined yet (or means what it
//! meant before). The kernel gets the same directives, in order, between
//! `#pragma push_macro` and `#pragma pop_macro` of each name they touch,
//! so the function's own code, after the kernel, still sees the macros as
//! they were, then the function's directives again.

use super::Span;
use crate::diag::{codes, Diagnostic};
use crate::source::cond::{self, CondGroup};

/// The text placed before and after a kernel (both empty when the function
/// has no directive before the region).
pub struct Wrap {
    pub before: String,
    pub after: String,
}

/// The directive lines (`#define`, `#undef`, with their continuations) in
/// `text[from..to]`: their spans and the macro name each touches.
fn directives(text: &str, from: usize, to: usize) -> Vec<(Span, String)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut line = from;
    let mut in_comment = false;
    while line < to.min(b.len()) {
        let mut end = text[line..].find('\n').map_or(text.len(), |k| line + k);
        let l = &text[line..end];
        let starts_directive = !in_comment && l.trim_start().starts_with('#');
        // A block comment left open by this line (a directive line's own
        // comments end with it, as far as this scan needs).
        let opens = l.rfind("/*");
        if !starts_directive {
            in_comment = match (opens, l.rfind("*/")) {
                (Some(o), Some(c)) => o > c,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => in_comment,
            };
        }
        if starts_directive {
            while end < b.len() && text[line..end].trim_end_matches('\r').ends_with('\\') {
                end = text[end + 1..]
                    .find('\n')
                    .map_or(text.len(), |k| end + 1 + k);
            }
            let head = text[line..end].trim_start()[1..].trim_start();
            for word in ["define", "undef"] {
                if let Some(rest) = head.strip_prefix(word) {
                    if rest.starts_with([' ', '\t']) {
                        let name: String = rest
                            .trim_start()
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        if !name.is_empty() {
                            out.push((Span::new(line, end), name));
                        }
                    }
                }
            }
        }
        line = end + 1;
    }
    out
}

/// The wrap for the kernel of the region at `pragma` in the function that
/// starts at `function_start`; a located E0901 for a directive inside an
/// `#if` group of the function that does not hold the region.
pub fn around_kernel(
    text: &str,
    groups: &[CondGroup],
    function_start: usize,
    pragma: usize,
) -> Result<Wrap, Diagnostic> {
    let mut before = String::new();
    let mut names: Vec<String> = Vec::new();
    let region_arms = cond::arms_around(groups, pragma);
    let mut copied = Vec::new();
    for (span, name) in directives(text, function_start, pragma) {
        let mut applies = true;
        for (g, k) in cond::arms_around(groups, span.start) {
            if groups[g].span().start < function_start {
                continue;
            }
            match region_arms.iter().find(|(rg, _)| *rg == g) {
                Some((_, rk)) if *rk == k => {}
                Some(_) => applies = false,
                None => {
                    let line_end = text[pragma..].find('\n').map_or(text.len(), |n| pragma + n);
                    return Err(Diagnostic::new(
                        codes::NOT_SUPPORTED,
                        Span::new(pragma, line_end),
                        format!("this offloaded region follows a `#define {name}` inside an `#if` group of its function; the region's kernel, placed above the function, cannot follow such a macro yet"),
                    )
                    .with_label("region whose kernel would miss the conditional macro")
                    .with_secondary(span, "macro directive inside a conditional group")
                    .with_help("move the #define above the function"));
                }
            }
        }
        if applies {
            copied.push((span, name));
        }
    }
    for (_, name) in &copied {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    if copied.is_empty() {
        return Ok(Wrap {
            before: String::new(),
            after: String::new(),
        });
    }
    for n in &names {
        before.push_str(&format!("#pragma push_macro(\"{n}\")\n"));
    }
    for (span, _) in &copied {
        before.push_str(text[span.start..span.end].trim_start());
        before.push('\n');
    }
    let after: String = names
        .iter()
        .rev()
        .map(|n| format!("#pragma pop_macro(\"{n}\")\n"))
        .collect();
    Ok(Wrap { before, after })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_defines_before_the_region_wrap_the_kernel() {
        let t = "int f(void) {\n#define K 3\n /* #define X 1 */\n#undef J\n#pragma omp target\n";
        let w = around_kernel(t, &[], 0, t.find("#pragma").unwrap())
            .ok()
            .unwrap();
        assert_eq!(
            w.before,
            "#pragma push_macro(\"K\")\n#pragma push_macro(\"J\")\n#define K 3\n#undef J\n"
        );
        assert_eq!(
            w.after,
            "#pragma pop_macro(\"J\")\n#pragma pop_macro(\"K\")\n"
        );
    }
}
