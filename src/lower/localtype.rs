//! Structure and union types defined inside the function of a region.
//!
//! Kernels are emitted at file scope, where a type defined in the function
//! has no name. A variable of such a type that is firstprivate (passed by
//! value) or mapped (a whole variable, a one-dimensional array of them, or
//! a section through a pointer to them) gets a file-scope copy of the
//! definition under a fresh tag (`struct p2c_local_<kernel>_<tag>`, the
//! same members so the same layout in the same compiler), which the kernel
//! names; the host passes the value through a pointer cast to that type, or
//! casts the device address of the mapped data. The definition may be
//! tagged (`struct pair {...} v`), anonymous (`struct {...} v, w[5]`, also
//! with a comment before the brace) or
//! named by a local typedef; variables of one definition share one copy.
//! An `enum` (tagged, anonymous or a typedef of an anonymous one) is hoisted
//! into a namespace of its own (`namespace p2c_local_<kernel>_<tag> { enum
//! e {...}; }`) that the kernel opens with `using namespace`, so the body's
//! constants name the copy's and two functions' enums never clash; an enum
//! whose constant is also a visible variable or function stays E0303.
//! Everything else stays E0303: a body that names the type itself (its tag
//! or typedef name), members
//! of another local type, members sized by a local variable (a VLA's size)
//! or by a preprocessor branch, and arrays of several dimensions.

use crate::ir::localtype::Hoisted;
use crate::sema::sharing::{Attr, MapKind, VarAttr};
use crate::sema::symbols::{Scope, Storage};
use crate::sema::Deriv;

/// A local definition found: its keyword, the name the body may use (tag or
/// typedef name, none for an anonymous type), the members' text and a key
/// unique in the function (the byte offset of the definition).
struct Def {
    kw: String,
    name: Option<String>,
    members: String,
    key: String,
}

/// Hoists the local struct / union type of `v` when that is possible: its
/// type is rewritten to the hoisted name and the definition returned (empty
/// when an earlier variable of the region already brought it).
pub fn hoist(
    v: &mut VarAttr,
    kernel: &str,
    func_text: &str,
    body: &str,
    symbols: &Scope,
    earlier: &[Hoisted],
) -> Option<Hoisted> {
    if !hoistable_shape(v) {
        return None;
    }
    let base = v.sym.ty.base.trim().to_string();
    let def = find_def(&base, func_text, symbols)?;
    if let Some(n) = &def.name {
        if crate::source::mask::mentions_word(body, n) {
            return None;
        }
    }
    if !members_are_plain(&def.members, symbols) {
        return None;
    }
    let shown = def.name.as_deref().unwrap_or("(anonymous)");
    let (ty_name, scope, def_text) = if def.kw == "enum" {
        // The constants are names of the function too: the copy lives in
        // a namespace of its own, which the kernel opens.
        let consts = enumerators(&def.members)?;
        if consts.iter().any(|c| symbols.get(c).is_some()) {
            return None;
        }
        let ns = format!("p2c_local_{kernel}_{}", def.key);
        let text = format!(
            "/* `enum {shown}` is defined inside the function: the kernel names this copy and opens its namespace for the constants (lower/localtype.rs) */\nnamespace {ns} {{ enum e {{{}}}; }}\n\n",
            def.members
        );
        (format!("{ns}::e"), Some(ns), text)
    } else {
        let ty_name = format!("{} p2c_local_{kernel}_{}", def.kw, def.key);
        let text = format!(
            "/* `{} {shown}` is defined inside the function: the kernel names this copy (lower/localtype.rs) */\n{ty_name} {{{}}};\n\n",
            def.kw, def.members
        );
        (ty_name, None, text)
    };
    let already = earlier.iter().any(|h| h.ty_name == ty_name);
    v.sym.ty.base = ty_name.clone();
    Some(Hoisted {
        var: v.sym.name.clone(),
        ty_name,
        host_ty: base,
        def: if already { String::new() } else { def_text },
        scope: if already { None } else { scope },
    })
}

/// The constants of an enumerator list (`A = 1, B, C`), or `None` when an
/// item is not `NAME` or `NAME = value`.
fn enumerators(members: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut item = String::new();
    for c in members.chars().chain(std::iter::once(',')) {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                let name = item.split('=').next().unwrap_or("").trim().to_string();
                item.clear();
                if name.is_empty() {
                    continue; // a trailing comma
                }
                if !is_ident(&name) {
                    return None;
                }
                out.push(name);
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    (!out.is_empty()).then_some(out)
}

/// Firstprivate values, and mapped data whose device address the host can
/// cast: the variable itself, a one-dimensional array, a pointer.
fn hoistable_shape(v: &VarAttr) -> bool {
    let d = &v.sym.ty.derivs;
    match &v.attr {
        Attr::Firstprivate => d.is_empty(),
        Attr::Mapped { kind, .. } if *kind != MapKind::Attach => {
            d.is_empty() || matches!(d.as_slice(), [Deriv::Array(_)] | [Deriv::Pointer { .. }])
        }
        _ => false,
    }
}

/// The definition behind `base`: `struct tag` defined in the function, an
/// anonymous `struct { ... }`, or a local typedef name of either.
fn find_def(base: &str, func_text: &str, symbols: &Scope) -> Option<Def> {
    let kw_end = base
        .find(|c: char| c.is_whitespace() || c == '{')
        .unwrap_or(base.len());
    let kw = &base[..kw_end];
    if matches!(kw, "struct" | "union" | "enum") {
        let rest = base[kw_end..].trim_start();
        let (tag, braces) = match rest.find('{') {
            Some(i) => (rest[..i].trim(), Some(&rest[i..])),
            None => (rest.trim(), None),
        };
        // Comments between the keyword and the tag or brace are blanks
        // (`struct /* packed? */ { ... }`).
        let tag_text = without_comments(tag);
        let tag = tag_text.trim();
        if tag.is_empty() {
            // An anonymous type: its members are in the declaration.
            let members = braces?.strip_prefix('{')?.strip_suffix('}')?.to_string();
            return Some(Def {
                kw: kw.to_string(),
                name: None,
                members,
                key: format!("anon{}", func_text.find(base)?),
            });
        }
        if !is_ident(tag) {
            return None;
        }
        // A tag defined twice in the function (one hiding the other) is
        // not told apart here.
        let heads = |h: String| func_text.matches(h.as_str()).count();
        if heads(format!("{kw} {tag} {{")) + heads(format!("{kw} {tag}{{")) != 1 {
            return None;
        }
        let members = tagged_members(kw, tag, func_text)?;
        return Some(Def {
            kw: kw.to_string(),
            name: Some(tag.to_string()),
            members,
            key: tag.to_string(),
        });
    }
    let name = base.trim();
    let td = symbols
        .locals()
        .find(|s| s.is_typedef && s.storage != Storage::Global && s.name == name)?;
    if !td.ty.derivs.is_empty() {
        return None;
    }
    let inner = find_def(td.ty.base.trim(), func_text, symbols)?;
    // A typedef of a tagged type: the body could name either; only the
    // anonymous form is hoisted.
    if inner.name.is_some() {
        return None;
    }
    Some(Def {
        name: Some(name.to_string()),
        ..inner
    })
}

/// `text` with its `/* ... */` and `// ...` comments removed (an unclosed
/// `/*` removes the rest).
fn without_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    loop {
        let block = rest.find("/*");
        let line = rest.find("//");
        match (block, line) {
            (Some(b), l) if l.map_or(true, |l| b < l) => {
                out.push_str(&rest[..b]);
                out.push(' ');
                match rest[b + 2..].find("*/") {
                    Some(e) => rest = &rest[b + 2 + e + 2..],
                    None => return out,
                }
            }
            (_, Some(l)) => {
                out.push_str(&rest[..l]);
                out.push(' ');
                match rest[l..].find('\n') {
                    Some(e) => rest = &rest[l + e..],
                    None => return out,
                }
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// The members of `kw tag { ... }` defined in `func_text`.
fn tagged_members(kw: &str, tag: &str, func_text: &str) -> Option<String> {
    let head = [format!("{kw} {tag} {{"), format!("{kw} {tag}{{")]
        .into_iter()
        .find_map(|h| func_text.find(&h).map(|i| (i, h.len())))?;
    let open = head.0 + head.1 - 1;
    let mut depth = 0usize;
    for (i, c) in func_text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(func_text[open + 1..open + i].to_string());
                }
            }
            _ => {}
        }
    }
    None
}

/// Members that name no other local type, no local variable (a VLA's size)
/// and hold no preprocessor line.
fn members_are_plain(members: &str, symbols: &Scope) -> bool {
    if ["struct", "union", "enum"]
        .iter()
        .any(|k| crate::source::mask::mentions_word(members, k))
        || members.contains('#')
        || members.contains('{')
    {
        return false;
    }
    !symbols
        .locals()
        .filter(|s| s.storage != Storage::Global)
        .any(|s| crate::source::mask::mentions_word(members, &s.name))
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

#[cfg(test)]
mod comment_tests {
    use super::without_comments;

    #[test]
    fn comments_between_keyword_and_brace_are_blanks() {
        assert_eq!(without_comments("/* c */").trim(), "");
        assert_eq!(without_comments("pair /* x */").trim(), "pair");
        assert_eq!(without_comments("// a\n tag").trim(), "tag");
        assert_eq!(without_comments("a /* open").trim(), "a");
    }
}
