//! The rewrite of `__shared__` declarations for the emulator's concurrent
//! blocks (`-DP2C_SIM_CONCURRENT_BLOCKS=K`, emu/README.md). The emulator
//! makes `__shared__` a function-local `static` when blocks run one after
//! another; with several blocks at once each running block needs its own
//! copy, which a macro cannot give. So before the build each declaration
//!
//! ```text
//! [alignas(A)] __shared__ TYPE NAME[DIMS];
//! ```
//!
//! becomes, inside a function, `auto &NAME = *p2c_sim::block_shared<TYPE
//! [DIMS], A, ID>();` (the storage of the calling thread's block slot), and
//! at file scope an accessor function with `#define NAME (accessor())` and a
//! `#line` that keeps later line numbers. Line numbers never move otherwise.
//! A declaration of another shape is an error; `extern __shared__` (the
//! prelude's non-emulator arm) is left alone.

/// The rewritten text, or what could not be rewritten (with its line).
pub fn per_block_shared(text: &str) -> Result<String, String> {
    let masked = mask(text);
    let m = masked.as_bytes();
    let mut out = String::with_capacity(text.len() + 256);
    let mut copied = 0;
    let mut scopes: Vec<bool> = Vec::new(); // per open brace: a namespace-like brace
    let mut id = 0u32;
    let mut i = 0;
    while i < m.len() {
        match m[i] {
            b'{' => scopes.push(namespace_brace(&text[..i])),
            b'}' => {
                scopes.pop();
            }
            b'_' if is_word_at(m, i, b"__shared__") => {
                let line = text[..i].matches('\n').count() + 1;
                let err = |why: &str| format!("line {line}: {why}");
                let ls = text[..i].rfind('\n').map_or(0, |p| p + 1);
                let prefix = masked[ls..i].trim();
                if prefix.ends_with("extern") {
                    i += 10;
                    continue;
                }
                let end = masked[i..]
                    .find(';')
                    .map(|p| i + p)
                    .ok_or_else(|| err("a `__shared__` declaration without `;`"))?;
                if masked[ls..end].contains('\n') {
                    return Err(err("a `__shared__` declaration spread over lines"));
                }
                let decl = Decl::parse(prefix, &text[i + 10..end]).map_err(|e| err(&e))?;
                id += 1;
                let file_scope = scopes.iter().all(|n| *n);
                let indent = &text[ls..ls + (text[ls..i].len() - text[ls..i].trim_start().len())];
                out.push_str(&text[copied..ls]);
                out.push_str(indent);
                if file_scope {
                    let fun = format!("p2c_sim_shared_{id}");
                    out.push_str(&format!(
                        "static inline auto &{fun}() {{ return *{}; }}{}\n#define {} ({fun}())\n#line {}",
                        decl.storage(id),
                        &text[end + 1..text[end..].find('\n').map_or(text.len(), |p| end + p)],
                        decl.name,
                        line + 1
                    ));
                    copied = text[end..].find('\n').map_or(text.len(), |p| end + p);
                } else {
                    out.push_str(&format!("auto &{} = *{};", decl.name, decl.storage(id)));
                    copied = end + 1;
                }
                i = end + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(&text[copied..]);
    Ok(out)
}

/// One `__shared__` declaration, taken apart.
struct Decl {
    align: String,
    ty: String,
    name: String,
    dims: String,
}

impl Decl {
    /// `prefix` is what stands before `__shared__` on its line, `rest` what
    /// follows it up to the `;`.
    fn parse(prefix: &str, rest: &str) -> Result<Decl, String> {
        let mut align = "1".to_string();
        let mut body = String::new();
        for part in [prefix, rest] {
            let mut p = part;
            while let Some(k) = p.find("alignas") {
                body.push_str(&p[..k]);
                let open = p[k..].find('(').map(|o| k + o);
                let close = p[k..].find(')').map(|c| k + c);
                let (Some(o), Some(c)) = (open, close) else {
                    return Err("an `alignas` without its argument".into());
                };
                align = p[o + 1..c].trim().to_string();
                p = &p[c + 1..];
            }
            body.push_str(p);
            body.push(' ');
        }
        let body = body.trim();
        if body.contains(['=', ',', '{', '(']) {
            return Err(format!(
                "`__shared__ {body}` is not one declarator without initializer"
            ));
        }
        let mut dims_at = body.len();
        while body[..dims_at].trim_end().ends_with(']') {
            let t = body[..dims_at].trim_end();
            match t.rfind('[') {
                Some(o) => dims_at = o,
                None => return Err(format!("unbalanced `]` in `__shared__ {body}`")),
            }
        }
        let dims = body[dims_at..].trim().to_string();
        let head = body[..dims_at].trim_end();
        let name_at = head
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |p| p + 1);
        let (ty, name) = (head[..name_at].trim(), &head[name_at..]);
        if ty.is_empty() || name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(format!(
                "cannot find the type and name in `__shared__ {body}`"
            ));
        }
        Ok(Decl {
            align,
            ty: ty.to_string(),
            name: name.to_string(),
            dims,
        })
    }

    fn storage(&self, id: u32) -> String {
        format!(
            "p2c_sim::block_shared<{} {}, {}, {id}>()",
            self.ty, self.dims, self.align
        )
    }
}

fn is_word_at(m: &[u8], i: usize, w: &[u8]) -> bool {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    m[i..].starts_with(w)
        && (i == 0 || !ident(m[i - 1]))
        && !matches!(m.get(i + w.len()), Some(c) if ident(*c))
}

/// Whether the `{` after `before` opens a namespace or an `extern "C"` block
/// (whose declarations are at file scope).
fn namespace_brace(before: &str) -> bool {
    let t = before.trim_end();
    if t.ends_with("extern \"C\"") || t.ends_with("extern \"C++\"") {
        return true;
    }
    let stmt = t.rsplit([';', '{', '}']).next().unwrap_or("");
    let words: Vec<&str> = stmt.split_whitespace().collect();
    words.first() == Some(&"namespace")
        || (words.len() >= 2 && words[words.len() - 2] == "namespace")
}

/// `text` with comments and the contents of string and character literals
/// blanked (byte offsets and newlines kept); preprocessor lines stay.
fn mask(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, k: usize| {
        if out[k] != b'\n' {
            out[k] = b' ';
        }
    };
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            let end = text[i + 2..].find("*/").map_or(b.len(), |p| i + 2 + p + 2);
            (i..end).for_each(|k| blank(&mut out, k));
            i = end;
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && !(b[i] == b'\n' && b[i - 1] != b'\\') {
                blank(&mut out, i);
                i += 1;
            }
        } else if b[i] == b'"' || b[i] == b'\'' {
            let q = b[i];
            i += 1;
            while i < b.len() && b[i] != q && b[i] != b'\n' {
                if b[i] == b'\\' && i + 1 < b.len() {
                    blank(&mut out, i);
                    i += 1;
                }
                blank(&mut out, i);
                i += 1;
            }
            i += 1;
        } else {
            i += 1;
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces at byte positions of
    // ASCII or whole multi-byte sequences inside comments/strings.
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_scope_declarations_become_per_block_references() {
        let src = "__global__ void k() {\n    alignas(16) __shared__ unsigned char p2c_stage[64]; /* frame */\n    __shared__ p2c_lastcond<float> slots[32];\n    __shared__ int p2c_is_last;\n    // __shared__ int not_this;\n    const char *s = \"__shared__\";\n}\n";
        let out = per_block_shared(src).unwrap();
        assert_eq!(
            out,
            "__global__ void k() {\n    auto &p2c_stage = *p2c_sim::block_shared<unsigned char [64], 16, 1>(); /* frame */\n    auto &slots = *p2c_sim::block_shared<p2c_lastcond<float> [32], 1, 2>();\n    auto &p2c_is_last = *p2c_sim::block_shared<int , 1, 3>();\n    // __shared__ int not_this;\n    const char *s = \"__shared__\";\n}\n"
        );
    }

    #[test]
    fn file_scope_declarations_get_an_accessor_and_keep_line_numbers() {
        let src = "extern \"C\" {\nstruct t { int a; };\n__shared__ t p2c_orphan; // x\nint f() { return p2c_orphan.a; }\n}\n";
        let out = per_block_shared(src).unwrap();
        assert_eq!(
            out,
            "extern \"C\" {\nstruct t { int a; };\nstatic inline auto &p2c_sim_shared_1() { return *p2c_sim::block_shared<t , 1, 1>(); } // x\n#define p2c_orphan (p2c_sim_shared_1())\n#line 4\nint f() { return p2c_orphan.a; }\n}\n"
        );
    }

    #[test]
    fn extern_shared_is_left_and_odd_shapes_are_refused() {
        let src = "#else\n    extern __shared__ unsigned char p2c_dynamic_smem[];\n#endif\n";
        assert_eq!(per_block_shared(src).unwrap(), src);
        assert!(per_block_shared("void f() { __shared__ int a, b; }")
            .unwrap_err()
            .contains("line 1"));
        assert!(per_block_shared("void f() { __shared__ int a = 0; }").is_err());
    }
}
