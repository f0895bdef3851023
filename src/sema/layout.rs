//! Sizes and alignments of C types as the device compilers lay them out
//! (LP64, the data model of nvcc and clang on x86-64 and aarch64 hosts), and
//! the integer constant expressions that give array extents.
//!
//! The translator needs exact byte counts to place variables in a team's
//! shared-memory frame (seed 002's future work: offsets computed by the
//! compiler rather than mirroring the local stack). Extents are evaluated
//! from integer literals and the object-like `#define`s of the file; when a
//! size depends on a macro the emitted code asserts it with `static_assert`,
//! so a `-D` flag that changes the macro is caught by nvcc instead of
//! overflowing the frame.

use super::ctype::{CType, Deriv};
use std::collections::HashMap;

pub use crate::ir::c::Layout;

/// Why a layout could not be computed (shown in diagnostics).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// The base type is not one pragma2cuda knows the size of.
    Base(String),
    /// An array extent that is not an integer constant expression of this file.
    Extent(String),
    /// A variable-length array (extent known only at run time).
    Vla(String),
}

impl Unknown {
    pub fn describe(&self) -> String {
        match self {
            Unknown::Base(b) => format!("the size of `{b}` is not known to pragma2cuda"),
            Unknown::Extent(e) => {
                format!("the array extent `{e}` is not an integer constant of this file")
            }
            Unknown::Vla(e) => format!("`[{e}]` is a variable-length array"),
        }
    }
}

/// The object-like macros of a file (`#define NAME body`), for extents, and
/// its plain typedefs of arithmetic types (`typedef double real_t;`), for
/// base types.
#[derive(Clone, Debug, Default)]
pub struct Consts {
    macros: HashMap<String, Option<String>>,
    /// `None`: defined twice with different types, or not a plain typedef
    /// of an arithmetic type (the name is then unknown, never guessed).
    typedefs: HashMap<String, Option<String>>,
}

impl Consts {
    /// Collects `#define NAME body` lines (not function-like). A name defined
    /// twice with different bodies, or `#undef`ined, is not used.
    pub fn from_text(text: &str) -> Consts {
        let mut macros: HashMap<String, Option<String>> = HashMap::new();
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next() {
            let mut l = line.trim_start().to_string();
            while l.ends_with('\\') {
                l.pop();
                match lines.next() {
                    Some(n) => l.push_str(n),
                    None => break,
                }
            }
            let Some(rest) = l.strip_prefix('#') else {
                continue;
            };
            let rest = rest.trim_start();
            if let Some(def) = rest.strip_prefix("undef") {
                let name = def.trim().to_string();
                macros.insert(name, None);
                continue;
            }
            let Some(def) = rest.strip_prefix("define") else {
                continue;
            };
            if !def.starts_with([' ', '\t']) {
                continue;
            }
            let def = def.trim_start();
            let end = def
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(def.len());
            let (name, body) = def.split_at(end);
            if name.is_empty() || body.starts_with('(') {
                continue;
            }
            let body = strip_comments(body).trim().to_string();
            match macros.get(name) {
                Some(Some(prev)) if *prev != body => {
                    macros.insert(name.to_string(), None);
                }
                Some(None) => {}
                _ => {
                    macros.insert(name.to_string(), Some(body));
                }
            }
        }
        let typedefs = plain_typedefs(text);
        Consts { macros, typedefs }
    }

    /// The layout of a base type, through the file's plain typedefs.
    pub fn base_layout(&self, base: &str) -> Option<Layout> {
        base_layout(base).or_else(|| base_layout(self.resolve_typedef(base)?))
    }

    /// The arithmetic type a single typedef name stands for, if the file
    /// defines it once (or always the same way) with a plain typedef.
    fn resolve_typedef(&self, base: &str) -> Option<&str> {
        let mut words = base.split_whitespace().filter(|w| {
            !matches!(
                *w,
                "const" | "volatile" | "restrict" | "__restrict" | "__restrict__"
            )
        });
        let name = words.next()?;
        if words.next().is_some() {
            return None;
        }
        self.typedefs.get(name)?.as_deref()
    }

    /// Whether `expr` names any macro (then the emitted code asserts the size).
    pub fn uses_macro(&self, expr: &str) -> bool {
        idents(expr).iter().any(|i| self.macros.contains_key(i))
    }

    /// Evaluates an integer constant expression.
    pub fn eval(&self, expr: &str) -> Option<i128> {
        let toks = tokenize(&self.expand(expr, 0)?)?;
        let mut p = Parser { toks, pos: 0 };
        let v = p.expr(0)?;
        (p.pos == p.toks.len()).then_some(v)
    }

    fn expand(&self, expr: &str, depth: u32) -> Option<String> {
        if depth > 16 {
            return None;
        }
        let mut out = String::new();
        let b = expr.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i] as char;
            if c.is_ascii_alphabetic() || c == '_' {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let word = &expr[start..i];
                match self.macros.get(word) {
                    Some(Some(body)) => {
                        out.push('(');
                        out.push_str(&self.expand(body, depth + 1)?);
                        out.push(')');
                    }
                    _ => out.push_str(word),
                }
            } else if c.is_ascii_digit() {
                // A number with its suffix stays one word.
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                    i += 1;
                }
                out.push_str(&expr[start..i]);
            } else {
                out.push(c);
                i += 1;
            }
        }
        Some(out)
    }
}

fn strip_comments(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    loop {
        let a = rest.find("/*");
        let b = rest.find("//");
        match (a, b) {
            (Some(x), Some(y)) if y < x => {
                out.push_str(&rest[..y]);
                return out;
            }
            (None, Some(y)) => {
                out.push_str(&rest[..y]);
                return out;
            }
            (Some(x), _) => {
                out.push_str(&rest[..x]);
                out.push(' ');
                match rest[x + 2..].find("*/") {
                    Some(e) => rest = &rest[x + 2 + e + 2..],
                    None => return out,
                }
            }
            (None, None) => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

fn idents(expr: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut cur = String::new();
    let mut in_number = false;
    for c in expr.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            if cur.is_empty() {
                in_number = c.is_ascii_digit();
            }
            cur.push(c);
        } else {
            if !cur.is_empty() && !in_number {
                v.push(std::mem::take(&mut cur));
            }
            cur.clear();
        }
    }
    if !cur.is_empty() && !in_number {
        v.push(cur);
    }
    v
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(i128),
    Op(&'static str),
}

fn tokenize(s: &str) -> Option<Vec<Tok>> {
    const OPS: [&str; 18] = [
        "<<", ">>", "(", ")", "+", "-", "*", "/", "%", "&", "|", "^", "~", "<", ">", "!", "?", ":",
    ];
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            out.push(Tok::Num(int_value(&s[start..i])?));
            continue;
        }
        let op = OPS.iter().find(|o| s[i..].starts_with(**o))?;
        out.push(Tok::Op(op));
        i += op.len();
    }
    Some(out)
}

/// An integer literal with C suffixes (`96`, `0x60`, `0140`, `96u`, `96UL`).
fn int_value(t: &str) -> Option<i128> {
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()
    } else if t.len() > 1 && t.starts_with('0') {
        i128::from_str_radix(&t[1..], 8).ok()
    } else {
        t.parse().ok()
    }
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

impl Parser {
    fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.pos) {
            Some(Tok::Op(o)) => Some(o),
            _ => None,
        }
    }

    fn prec(op: &str) -> Option<u8> {
        Some(match op {
            "|" => 1,
            "^" => 2,
            "&" => 3,
            "<<" | ">>" => 5,
            "+" | "-" => 6,
            "*" | "/" | "%" => 7,
            _ => return None,
        })
    }

    fn expr(&mut self, min: u8) -> Option<i128> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.peek_op() {
            let Some(p) = Self::prec(op) else { break };
            if p < min {
                break;
            }
            self.pos += 1;
            let rhs = self.expr(p + 1)?;
            lhs = match op {
                "|" => lhs | rhs,
                "^" => lhs ^ rhs,
                "&" => lhs & rhs,
                "<<" => lhs.checked_shl(u32::try_from(rhs).ok()?)?,
                ">>" => lhs.checked_shr(u32::try_from(rhs).ok()?)?,
                "+" => lhs.checked_add(rhs)?,
                "-" => lhs.checked_sub(rhs)?,
                "*" => lhs.checked_mul(rhs)?,
                "/" => lhs.checked_div(rhs)?,
                "%" => lhs.checked_rem(rhs)?,
                _ => return None,
            };
        }
        Some(lhs)
    }

    fn unary(&mut self) -> Option<i128> {
        match self.toks.get(self.pos)?.clone() {
            Tok::Num(v) => {
                self.pos += 1;
                Some(v)
            }
            Tok::Op("(") => {
                self.pos += 1;
                let v = self.expr(0)?;
                (self.peek_op() == Some(")")).then_some(())?;
                self.pos += 1;
                Some(v)
            }
            Tok::Op("-") => {
                self.pos += 1;
                self.unary()?.checked_neg()
            }
            Tok::Op("+") => {
                self.pos += 1;
                self.unary()
            }
            Tok::Op("~") => {
                self.pos += 1;
                Some(!self.unary()?)
            }
            _ => None,
        }
    }
}

/// Size and alignment of a base type (specifiers without qualifiers).
pub fn base_layout(base: &str) -> Option<Layout> {
    let words: Vec<&str> = base
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "volatile" | "restrict" | "__restrict" | "__restrict__"
            )
        })
        .collect();
    let l = |n: u64| Some(Layout { size: n, align: n });
    if words.first() == Some(&"enum") {
        return l(4);
    }
    if matches!(words.first(), Some(&"struct") | Some(&"union")) {
        return None;
    }
    let longs = words.iter().filter(|w| **w == "long").count();
    let has = |w: &str| words.contains(&w);
    if has("char") || has("_Bool") || has("bool") {
        return l(1);
    }
    if has("short") {
        return l(2);
    }
    if has("float") {
        return l(4);
    }
    if has("double") {
        // long double differs between host and device compilers.
        return if longs > 0 { None } else { l(8) };
    }
    if longs > 0 {
        return l(8);
    }
    if has("int") || has("signed") || has("unsigned") {
        return l(4);
    }
    match words.as_slice() {
        [w] => match *w {
            "int8_t" | "uint8_t" | "int_least8_t" | "uint_least8_t" => l(1),
            "int16_t" | "uint16_t" | "int_least16_t" | "uint_least16_t" => l(2),
            "int32_t" | "uint32_t" | "int_least32_t" | "uint_least32_t" => l(4),
            "int64_t" | "uint64_t" | "int_least64_t" | "uint_least64_t" | "size_t" | "ssize_t"
            | "ptrdiff_t" | "intptr_t" | "uintptr_t" | "intmax_t" | "uintmax_t" => l(8),
            _ => None,
        },
        _ => None,
    }
}

/// `ty` with a base that names a typedef of `syms` replaced by the typedef's
/// type (its derivations after `ty`'s, which apply outside them), repeated
/// for typedefs of typedefs; other types unchanged. `layout_of` then knows
/// `typedef double real_t;` as 8 bytes.
pub fn resolve_typedefs(ty: &CType, syms: &super::symbols::Scope) -> CType {
    let mut t = ty.clone();
    for _ in 0..8 {
        if base_layout(&t.base).is_some() {
            break;
        }
        let base = t.unqualified_base();
        let Some(s) = syms.get(base.trim()).filter(|s| s.is_typedef) else {
            break;
        };
        let mut derivs = t.derivs.clone();
        derivs.extend(s.ty.derivs.iter().cloned());
        t = CType {
            base: s.ty.base.clone(),
            derivs,
        };
    }
    t
}

/// Layout of a variable's type. Function types and unknown bases fail.
pub fn layout_of(ty: &CType, consts: &Consts) -> Result<Layout, Unknown> {
    // derivs read from the name outward: the last one applies to the base.
    let mut cur: Option<Layout> = None;
    for d in ty.derivs.iter().rev() {
        cur = Some(match d {
            Deriv::Pointer { .. } => Layout { size: 8, align: 8 },
            Deriv::Function => return Err(Unknown::Base("a function".into())),
            Deriv::Array(n) => {
                let inner = match cur {
                    Some(l) => l,
                    None => consts
                        .base_layout(&ty.base)
                        .ok_or_else(|| Unknown::Base(ty.base.clone()))?,
                };
                let Some(n) = n else {
                    return Err(Unknown::Extent(String::new()));
                };
                let count = consts.eval(n).filter(|v| *v >= 0).ok_or_else(|| {
                    if looks_constant(n) {
                        Unknown::Extent(n.clone())
                    } else {
                        Unknown::Vla(n.clone())
                    }
                })?;
                let size = u64::try_from(count)
                    .ok()
                    .and_then(|c| c.checked_mul(inner.size))
                    .ok_or_else(|| Unknown::Extent(n.clone()))?;
                Layout {
                    size,
                    align: inner.align,
                }
            }
        });
    }
    match cur {
        Some(l) => Ok(l),
        None => consts
            .base_layout(&ty.base)
            .ok_or_else(|| Unknown::Base(ty.base.clone())),
    }
}

/// `typedef <arithmetic type words> NAME;` statements of the file, resolved
/// through earlier ones (`typedef real_t value_t;`). Anything with braces,
/// brackets, parentheses, pointers or several declarators is skipped, and a
/// name typedef'd twice to different types is marked unknown. Text-based on
/// purpose: it also reads the typedefs a `--preprocess` run pulled in from
/// headers, which sit outside any function.
fn plain_typedefs(text: &str) -> HashMap<String, Option<String>> {
    let mut out: HashMap<String, Option<String>> = HashMap::new();
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(off) = text[from..].find("typedef") {
        let at = from + off;
        from = at + "typedef".len();
        let word_start = at == 0 || !is_ident_byte(bytes[at - 1]);
        let word_end = !bytes.get(from).is_some_and(|b| is_ident_byte(*b));
        if !(word_start && word_end) {
            continue;
        }
        let Some(semi) = text[from..].find(';') else {
            break;
        };
        let body = &text[from..from + semi];
        if !body
            .bytes()
            .all(|b| is_ident_byte(b) || b.is_ascii_whitespace())
        {
            continue;
        }
        let words: Vec<&str> = body.split_whitespace().collect();
        let Some((name, ty)) = words.split_last() else {
            continue;
        };
        if ty.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let ty = ty.join(" ");
        let resolved = if base_layout(&ty).is_some() {
            Some(ty)
        } else if let [single] = words[..words.len() - 1] {
            out.get(single).cloned().flatten()
        } else {
            None
        };
        match (out.get(*name), resolved) {
            (None, r) => {
                out.insert(name.to_string(), r);
            }
            (Some(Some(prev)), Some(r)) if *prev == r => {}
            _ => {
                out.insert(name.to_string(), None);
            }
        }
    }
    out
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// An extent written with upper-case names only (macros from elsewhere),
/// rather than variables: reported as unknown, not as a VLA.
fn looks_constant(e: &str) -> bool {
    idents(e).iter().all(|i| {
        i.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    })
}

/// Whether the type's size depends on a macro or on a typedef the
/// translator resolved (the emitter asserts it, so that a `-D` flag or a
/// header the translator did not see cannot change it unnoticed).
pub fn depends_on_macro(ty: &CType, consts: &Consts) -> bool {
    let typedef_base =
        base_layout(&ty.base).is_none() && consts.resolve_typedef(&ty.base).is_some();
    let behind_pointer = ty.derivs.iter().any(|d| matches!(d, Deriv::Pointer { .. }));
    (typedef_base && !behind_pointer)
        || ty.derivs.iter().any(|d| match d {
            Deriv::Array(Some(n)) => consts.uses_macro(n),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(base: &str, derivs: Vec<Deriv>) -> CType {
        CType {
            base: base.into(),
            derivs,
        }
    }

    #[test]
    fn evaluates_macros_and_operators() {
        let c = Consts::from_text(
            "#define WORKERS 96\n#define TEAMS (4)\n#define SIZE TEAMS*WORKERS /* all */\n#define F(x) x\n#define H 0x10u\n",
        );
        assert_eq!(c.eval("SIZE"), Some(384));
        assert_eq!(c.eval("WORKERS + 1"), Some(97));
        assert_eq!(c.eval("(SIZE - 4) / 2 % 7"), Some(1));
        assert_eq!(c.eval("H << 2"), Some(64));
        assert_eq!(c.eval("010"), Some(8));
        assert_eq!(c.eval("-3 + ~0"), Some(-4));
        assert_eq!(c.eval("F(2)"), None);
        assert_eq!(c.eval("n"), None);
        assert_eq!(c.eval("1 +"), None);
        assert_eq!(c.eval("1 / 0"), None);
        assert!(c.uses_macro("SIZE"));
        assert!(!c.uses_macro("96"));
    }

    #[test]
    fn redefinitions_and_undef_are_not_trusted() {
        let c = Consts::from_text(
            "#define A 1\n#define A 2\n#define B 3\n#undef B\n#define C \\\n 5\n",
        );
        assert_eq!(c.eval("A"), None);
        assert_eq!(c.eval("B"), None);
        assert_eq!(c.eval("C"), Some(5));
    }

    #[test]
    fn layouts_of_scalars_pointers_and_arrays() {
        let c = Consts::from_text("#define W 96\n");
        let lay = |t: CType| layout_of(&t, &c);
        assert_eq!(lay(ty("int", vec![])), Ok(Layout { size: 4, align: 4 }));
        assert_eq!(
            lay(ty("const double", vec![])),
            Ok(Layout { size: 8, align: 8 })
        );
        assert_eq!(
            lay(ty("unsigned char", vec![])),
            Ok(Layout { size: 1, align: 1 })
        );
        assert_eq!(
            lay(ty("long long", vec![])),
            Ok(Layout { size: 8, align: 8 })
        );
        assert_eq!(lay(ty("short", vec![])), Ok(Layout { size: 2, align: 2 }));
        assert_eq!(lay(ty("size_t", vec![])), Ok(Layout { size: 8, align: 8 }));
        assert_eq!(
            lay(ty("int", vec![Deriv::Array(Some("W".into()))])),
            Ok(Layout {
                size: 384,
                align: 4
            })
        );
        // double a[2][3]
        assert_eq!(
            lay(ty(
                "double",
                vec![
                    Deriv::Array(Some("2".into())),
                    Deriv::Array(Some("3".into()))
                ]
            )),
            Ok(Layout { size: 48, align: 8 })
        );
        // char *p[4]
        assert_eq!(
            lay(ty(
                "char",
                vec![
                    Deriv::Array(Some("4".into())),
                    Deriv::Pointer { quals: vec![] }
                ]
            )),
            Ok(Layout { size: 32, align: 8 })
        );
        assert!(matches!(lay(ty("struct s", vec![])), Err(Unknown::Base(_))));
        assert!(matches!(
            lay(ty("long double", vec![])),
            Err(Unknown::Base(_))
        ));
        assert!(matches!(
            lay(ty("int", vec![Deriv::Array(Some("n".into()))])),
            Err(Unknown::Vla(_))
        ));
        assert!(matches!(
            lay(ty("int", vec![Deriv::Array(Some("OTHER".into()))])),
            Err(Unknown::Extent(_))
        ));
        assert!(depends_on_macro(
            &ty("int", vec![Deriv::Array(Some("W".into()))]),
            &c
        ));
    }

    #[test]
    fn resolves_plain_typedefs_and_refuses_the_rest() {
        let c = Consts::from_text(
            "typedef double real_t;\ntypedef real_t value_t;\ntypedef unsigned short u16;\n\
             typedef struct { int a; } pair;\ntypedef int twice;\ntypedef long twice;\n\
             typedef float vec3[3];\nint typedefs_seen;\ntypedef int (*fn)(int);\n",
        );
        let l = |b: &str, d: Vec<Deriv>| layout_of(&ty(b, d), &c);
        assert_eq!(l("real_t", vec![]), Ok(Layout { size: 8, align: 8 }));
        assert_eq!(l("const value_t", vec![]), Ok(Layout { size: 8, align: 8 }));
        assert_eq!(
            l("u16", vec![Deriv::Array(Some("5".into()))]),
            Ok(Layout { size: 10, align: 2 })
        );
        // Not plain, defined twice differently, or never defined: unknown.
        for b in ["pair", "twice", "vec3", "fn", "typedefs_seen", "other_t"] {
            assert!(matches!(l(b, vec![]), Err(Unknown::Base(_))), "{b}");
        }
        // A size read through a typedef is asserted by the emitted code;
        // behind a pointer it does not matter.
        assert!(depends_on_macro(&ty("real_t", vec![]), &c));
        assert!(!depends_on_macro(
            &ty("real_t", vec![Deriv::Pointer { quals: vec![] }]),
            &c
        ));
        assert!(!depends_on_macro(&ty("double", vec![]), &c));
    }
}
