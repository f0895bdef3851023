//! Structure and union types defined inside the function of a region.
//!
//! Kernels are emitted at file scope, where a type defined in the function
//! has no name. For a `firstprivate` variable of such a type (OpenMP's
//! `defaultmap(firstprivate)` of a local struct, an explicit firstprivate),
//! the kernel gets a file-scope copy of the definition under a fresh tag
//! (`struct p2c_local_<kernel>_<tag>`, the same members so the same layout
//! in the same compiler), and the host passes the value through a pointer
//! cast to that type. Everything else of a local type stays E0303: mapped
//! data (the present table and the copies are typed), a body that names the
//! type itself, typedef names, and definitions that name other local types.

use crate::ir::localtype::Hoisted;
use crate::sema::sharing::{Attr, VarAttr};

/// Hoists the local struct / union type of `v` when that is possible: its
/// type is rewritten to the hoisted name and the definition returned.
/// `func_text` is the function's text, `body` the region's.
pub fn hoist(v: &mut VarAttr, kernel: &str, func_text: &str, body: &str) -> Option<Hoisted> {
    if v.attr != Attr::Firstprivate || !v.sym.ty.derivs.is_empty() {
        return None;
    }
    let base = v.sym.ty.base.trim().to_string();
    let (kw, tag) = base.split_once(' ')?;
    let tag = tag.trim();
    if !matches!(kw, "struct" | "union") || !is_ident(tag) {
        return None;
    }
    if crate::source::mask::mentions_word(body, tag) {
        return None;
    }
    let head = [format!("{kw} {tag} {{"), format!("{kw} {tag}{{")]
        .into_iter()
        .find_map(|h| func_text.find(&h).map(|i| (i, h.len())))?;
    let open = head.0 + head.1 - 1;
    let mut depth = 0usize;
    let mut close = None;
    for (i, c) in func_text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let members = &func_text[open + 1..close?];
    // Members of another local struct / union type are out of reach too.
    if members.contains("struct ") || members.contains("union ") || members.contains('#') {
        return None;
    }
    let ty_name = format!("{kw} p2c_local_{kernel}_{tag}");
    let def = format!(
        "/* `{kw} {tag}` is defined inside the function: the kernel names this copy (lower/localtype.rs) */\n{ty_name} {{{members}}};\n\n"
    );
    v.sym.ty.base = ty_name.clone();
    Some(Hoisted {
        var: v.sym.name.clone(),
        ty_name,
        host_ty: base,
        def,
    })
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}
