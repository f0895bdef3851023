//! OpenACC pointer members in data clauses and the `attach` / `detach`
//! clauses (OpenACC 3.3 2.6.8 "Attachment Counter", 2.7.2 "Data Clause
//! Actions", 2.7.13 `attach`, 2.7.14 `detach`).
//!
//! `copyin(s.p[lo:n])` on a data construct or `enter/exit data` maps the
//! section the member pointer points to and is a *pointer reference*: after
//! the entry, the pointer's device copy (inside the mapping of `s`, when `s`
//! is present) is attached to the device copy of the section; before the
//! exit it is detached (the host value written back when the attachment
//! counter reaches zero). `attach(s.p)` / `detach(s.p)` do only that. The
//! runtime side (the attachment counters) is `p2c_attach_*` /
//! `p2c_detach_*` of templates/p2c_host.cuh. OpenMP members stay refused in
//! `lower::data::resolve_item`.

use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, ListItem};
use crate::ir::data::{DataKind, RangeExpr};

/// Whether `c` names an OpenACC pointer clause (`attach` / `detach`).
pub fn pointer_clause(name: &str) -> bool {
    matches!(name, "attach" | "detach")
}

fn refuse(item: &ListItem, what: String, label: &str, diags: &mut Vec<Diagnostic>) {
    diags
        .push(Diagnostic::new(codes::NOT_SUPPORTED, item.span, what).with_label(label.to_string()));
}

/// A member access path of identifiers only (`.a`, `->b.c`).
fn plain_path(path: &str) -> bool {
    let mut rest = path.trim();
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        rest = if let Some(r) = rest.strip_prefix("->") {
            r
        } else if let Some(r) = rest.strip_prefix('.') {
            r
        } else {
            return false;
        }
        .trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 || rest.starts_with(|c: char| c.is_ascii_digit()) {
            return false;
        }
        rest = rest[end..].trim_start();
    }
    true
}

/// One item of an OpenACC data clause that is a member access (`s.p[0:n]`)
/// or of `attach` / `detach`: its host expression (the name written into
/// the output) and range; `None` (with a located diagnostic) when it is not
/// lowered. `base_declared` says the base name is a declared variable.
pub fn member_item(
    d: &Directive,
    kind: DataKind,
    clause: &str,
    item: &ListItem,
    base_declared: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<(String, RangeExpr)> {
    if !base_declared {
        diags.push(
            Diagnostic::new(
                codes::UNDECLARED,
                item.name_span,
                format!("`{}` is not a declared variable", item.name),
            )
            .with_label("not declared before this directive"),
        );
        return None;
    }
    let expr = format!("{}{}", item.name, item.path.trim());
    if !item.path.is_empty() && !plain_path(&item.path) {
        refuse(
            item,
            format!("`{expr}`: only member names may follow the variable here (not lowered yet)"),
            "not lowered yet",
            diags,
        );
        return None;
    }
    if pointer_clause(clause) {
        if !item.sections.is_empty() {
            diags.push(
                Diagnostic::new(
                    codes::BAD_CLAUSE_ARG,
                    item.span,
                    format!("`{clause}` takes a pointer, not an array section"),
                )
                .with_label("array section")
                .with_help(format!("write `{clause}({expr})`")),
            );
            return None;
        }
        return Some((expr, RangeExpr::Pointer));
    }
    if kind == DataKind::DeclareScope || item.sections.len() != 1 {
        refuse(
            item,
            if item.sections.is_empty() {
                "struct members in data clauses are not supported yet (only sections of member pointers, `s.p[lo:n]`)".to_string()
            } else if kind == DataKind::DeclareScope {
                format!(
                    "`{expr}` in `acc {}`: member sections are not supported yet",
                    d.name
                )
            } else {
                format!(
                    "`{expr}`: member sections of more than one dimension are not supported yet"
                )
            },
            "not lowered yet",
            diags,
        );
        return None;
    }
    let s = &item.sections[0];
    let lo = s
        .lower
        .as_ref()
        .map(|e| e.text.clone())
        .unwrap_or_else(|| "0".into());
    let len = if s.is_index {
        "1".to_string()
    } else {
        match &s.length {
            Some(e) => e.text.clone(),
            None => {
                diags.push(
                    Diagnostic::new(
                        codes::BAD_SECTION,
                        s.span,
                        format!("the length of this section of member `{expr}` must be given"),
                    )
                    .with_label("no length")
                    .with_help(format!("write `{expr}[{lo}:n]`")),
                );
                return None;
            }
        }
    };
    Some((expr, RangeExpr::Section { lo, len }))
}

#[cfg(test)]
mod tests {
    use super::plain_path;

    #[test]
    fn member_paths() {
        assert!(plain_path(".a"));
        assert!(plain_path("->b.c"));
        assert!(plain_path(" . a -> b"));
        assert!(!plain_path(""));
        assert!(!plain_path(".a[2]"));
        assert!(!plain_path(".1"));
        assert!(!plain_path("->"));
    }
}
