//! Pragmas that come from macros, found in the same pass as the pragmas.
//!
//! C programs often spell an offload pragma through a macro, so that one
//! source builds with and without OpenMP/OpenACC:
//!
//! ```c
//! #define PAR _Pragma("omp target teams distribute parallel for")
//! #define DO_PRAGMA(x) _Pragma(#x)
//! #define ACC_LOOP DO_PRAGMA(acc parallel loop)
//! ...
//!     PAR
//!     for (...) ...
//!     DO_PRAGMA(omp parallel for)
//!     for (...) ...
//! ```
//!
//! A macro defined in the file whose body is only `_Pragma` operators, the
//! stringizing form `_Pragma(#x)`, or an object-like macro whose body is a use
//! of such a stringizing macro, is expanded here: every use becomes a pragma
//! at the place of the use, so the front end attaches it to the statement
//! that follows. Other macros are left alone, except that two kinds of use are
//! reported so that nothing is dropped silently: a use of a macro of the file
//! whose body holds an `omp`/`acc` pragma among other tokens, or whose
//! argument is an `omp`/`acc` directive without a `_Pragma(#x)` body
//! ([`OpaqueUse`]),
//! and a name the file does not define, written alone on a line right before
//! a `for` loop, which is how a pragma macro from a header looks
//! ([`UnknownUse`]). The fix for both is `--preprocess`.
//!
//! A name keeps its pragma expansion when it is defined again in another form
//! (`#ifdef _OPENMP` / `#define PAR _Pragma(...)` / `#else` / `#define PAR` /
//! `#endif`: every arm is translated, see [`super::cond`]); `#undef` ends it.

use super::mask::{
    block_comment_end, directive_word, first_word, is_ident_byte, model_of, operators_in,
    pragma_model, scan_idents, skip_splice, PragmaForm, RawPragma,
};
use super::Model;
use super::Span;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// One pragma produced by a use of a macro of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroPragma {
    /// The macro's name.
    pub name: String,
    /// The use: `PAR`, or `DO_PRAGMA(omp for)` with its arguments.
    pub use_span: Span,
    /// The pragma text to parse: a `_Pragma("...")` operator in the macro's
    /// definition, or a bare `omp ...` / `acc ...` text (in a use's or a
    /// definition's arguments).
    pub text: Span,
    pub model: Model,
    /// The `#define` line the pragma comes from.
    pub define_span: Span,
}

/// A use of a macro of the file that produces a pragma pragma2cuda does not
/// expand: its body holds an `omp`/`acc` pragma among other tokens, or the
/// use's argument is `omp ...`/`acc ...` and the body is not `_Pragma(#x)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpaqueUse {
    pub name: String,
    pub use_span: Span,
    pub define_span: Span,
}

/// A name the file does not define, alone on its line (with or without a
/// parenthesised argument) right before a `for` loop: a macro from a header,
/// which may expand to a pragma.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownUse {
    pub name: String,
    pub use_span: Span,
    /// The argument starts with `omp` or `acc` (`PRAGMA(omp parallel for)`):
    /// certainly a pragma.
    pub pragma_argument: bool,
}

/// Everything one pass over the file finds.
#[derive(Clone, Debug, Default)]
pub struct Found {
    /// `#pragma omp|acc` lines and `_Pragma("omp|acc ...")` operators in code.
    pub pragmas: Vec<RawPragma>,
    /// Pragmas from uses of macros of the file, in text order.
    pub from_macros: Vec<MacroPragma>,
    pub opaque: Vec<OpaqueUse>,
    pub unknown: Vec<UnknownUse>,
}

impl Found {
    /// The spans the front end blanks out before parsing C: every pragma and
    /// every expanded macro use.
    pub fn masked_spans(&self) -> Vec<Span> {
        let mut v: Vec<Span> = self.pragmas.iter().map(|p| p.span).collect();
        v.extend(self.from_macros.iter().map(|m| m.use_span));
        v
    }
}

#[derive(Clone, Debug)]
enum Expansion {
    /// The body is only `_Pragma("omp|acc ...")` operators (their spans).
    Operators(Vec<(Span, Model)>),
    /// `#define P(x) _Pragma(#x)`: a use's argument is the pragma text.
    Stringize,
    /// `#define PAR P(omp parallel for)` with `P` stringizing: the pragma
    /// text is in the body.
    Text(Span, Model),
    /// An `omp`/`acc` pragma among other tokens.
    Opaque,
}

#[derive(Clone, Debug)]
struct Def {
    function_like: bool,
    expansion: Expansion,
    span: Span,
}

const C_KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Bool",
    "_Complex",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
];

/// `C_KEYWORDS.contains(&name)`, as one `match` (this runs for the first
/// word of every line).
fn is_c_keyword(name: &str) -> bool {
    matches!(
        name,
        "auto"
            | "break"
            | "case"
            | "char"
            | "const"
            | "continue"
            | "default"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "extern"
            | "float"
            | "for"
            | "goto"
            | "if"
            | "inline"
            | "int"
            | "long"
            | "register"
            | "restrict"
            | "return"
            | "short"
            | "signed"
            | "sizeof"
            | "static"
            | "struct"
            | "switch"
            | "typedef"
            | "union"
            | "unsigned"
            | "void"
            | "volatile"
            | "while"
            | "_Alignas"
            | "_Alignof"
            | "_Atomic"
            | "_Bool"
            | "_Complex"
            | "_Generic"
            | "_Imaginary"
            | "_Noreturn"
            | "_Static_assert"
            | "_Thread_local"
    )
}

/// Index of the first byte at or after `i` that is not a space, tab,
/// continuation or block comment; `newlines` says whether line ends and line
/// comments are skipped too.
fn skip_blank(b: &[u8], mut i: usize, end: usize, newlines: bool) -> usize {
    while i < end {
        if let Some(j) = skip_splice(b, i) {
            i = j;
            continue;
        }
        match b[i] {
            b' ' | b'\t' | b'\x0c' | b'\x0b' => i += 1,
            b'\r' | b'\n' if newlines => i += 1,
            b'\r' if b.get(i + 1) == Some(&b'\n') && !newlines => return i,
            b'/' if b.get(i + 1) == Some(&b'*') => i = block_comment_end(b, i).min(end),
            b'/' if newlines && b.get(i + 1) == Some(&b'/') => {
                while i < end && b[i] != b'\n' {
                    i += 1;
                }
            }
            _ => return i,
        }
    }
    end.min(b.len())
}

/// The index after the `)` matching the `(` at `open`, within `end`. String
/// and character literals are skipped; a newline is allowed (arguments may
/// span lines), but a `#` at the start of a line ends the search.
fn matching_paren(b: &[u8], open: usize, end: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < end {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < end && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = block_comment_end(b, i);
                continue;
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The span inside the parentheses `open..close` (after `(`, before `)`),
/// trimmed of blanks.
fn inner(b: &[u8], open: usize, close_after: usize) -> Span {
    let mut s = open + 1;
    let mut e = close_after.saturating_sub(1).max(s);
    while s < e && b[s].is_ascii_whitespace() {
        s += 1;
    }
    while e > s && b[e - 1].is_ascii_whitespace() {
        e -= 1;
    }
    Span::new(s, e)
}

/// The byte text of `b[s]` with whitespace and continuations removed.
fn squeezed(b: &[u8], s: Span) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = s.start;
    while i < s.end {
        if let Some(j) = skip_splice(b, i) {
            i = j;
            continue;
        }
        if !b[i].is_ascii_whitespace() {
            out.push(b[i]);
        }
        i += 1;
    }
    out
}

/// Whether `b[s]` holds only blanks and comments.
fn blank(b: &[u8], s: Span) -> bool {
    skip_blank(b, s.start, s.end, true) >= s.end
}

/// Reads a `#define` line: `(name, function_like, params, body)`.
fn read_define(b: &[u8], line: Span) -> Option<(String, bool, Vec<String>, Span)> {
    let (w, rest) = directive_word(&b[line.start..line.end]);
    if w != b"define" {
        return None;
    }
    let name = first_word(rest);
    if name.is_empty() || name[0].is_ascii_digit() {
        return None;
    }
    let name_start = name.as_ptr() as usize - b.as_ptr() as usize;
    let name_end = name_start + name.len();
    let name = String::from_utf8_lossy(name).into_owned();
    if b.get(name_end) == Some(&b'(') {
        let close = (name_end..line.end).find(|&i| b[i] == b')')?;
        let params = String::from_utf8_lossy(&squeezed(b, Span::new(name_end + 1, close)))
            .split(',')
            .map(str::to_string)
            .filter(|p| !p.is_empty())
            .collect();
        Some((name, true, params, Span::new(close + 1, line.end)))
    } else {
        Some((name, false, Vec::new(), Span::new(name_end, line.end)))
    }
}

/// The model of a bare pragma text `omp ...` / `acc ...`.
fn text_model(b: &[u8], s: Span) -> Option<Model> {
    let start = skip_blank(b, s.start, s.end, true);
    let w = first_word(&b[start..s.end]);
    let after = start + w.len();
    if after < s.end && is_ident_byte(b[after]) {
        return None;
    }
    model_of(w)
}

fn expansion(
    b: &[u8],
    function_like: bool,
    params: &[String],
    body: Span,
    defs: &HashMap<String, Def>,
) -> Option<Expansion> {
    let sq = squeezed(b, body);
    if function_like {
        for p in params {
            let arg = if p == "..." {
                "__VA_ARGS__"
            } else {
                p.as_str()
            };
            if sq == format!("_Pragma(#{arg})").as_bytes() {
                return Some(Expansion::Stringize);
            }
        }
    }
    let ops = operators_in(b, body.start, body.end);
    if !ops.is_empty() {
        // Only operators (and blanks) in the body?
        let mut pos = body.start;
        let mut only = true;
        for (s, _) in &ops {
            only &= blank(b, Span::new(pos, s.start));
            pos = s.end;
        }
        only &= blank(b, Span::new(pos, body.end));
        return Some(if only {
            Expansion::Operators(ops)
        } else {
            Expansion::Opaque
        });
    }
    if !function_like {
        // `P(omp ...)` with `P` a stringizing macro of the file.
        let s = skip_blank(b, body.start, body.end, true);
        let w = first_word(&b[s..body.end]);
        let name = String::from_utf8_lossy(w);
        let is_stringize = defs
            .get(name.as_ref())
            .is_some_and(|d| matches!(d.expansion, Expansion::Stringize));
        if is_stringize {
            let open = skip_blank(b, s + w.len(), body.end, true);
            if b.get(open) == Some(&b'(') {
                let close = matching_paren(b, open, body.end)?;
                let text = inner(b, open, close);
                if blank(b, Span::new(close, body.end)) {
                    if let Some(m) = text_model(b, text) {
                        return Some(Expansion::Text(text, m));
                    }
                }
            }
        }
    }
    None
}

/// Finds the pragmas of the file, the pragmas its macros produce, and the
/// macro uses that hide a pragma pragma2cuda cannot see. One pass.
pub fn find_all(text: &str) -> Found {
    let b = text.as_bytes();
    // The three callbacks share the state; each borrows it for a moment.
    let state = RefCell::new(State::default());
    // Every identifier matters once the file defines a pragma macro.
    let all_idents = Cell::new(false);
    scan_idents(
        text,
        |line| {
            let mut st = state.borrow_mut();
            if let Some(model) = pragma_model(&b[line.start..line.end]) {
                st.found.pragmas.push(RawPragma {
                    span: line,
                    form: PragmaForm::Hash,
                    model,
                });
                return;
            }
            let (w, rest) = directive_word(&b[line.start..line.end]);
            if w == b"undef" {
                let n = String::from_utf8_lossy(first_word(rest)).into_owned();
                st.defs.remove(&n);
                st.defined.remove(&n);
                return;
            }
            let Some((name, function_like, params, body)) = read_define(b, line) else {
                return;
            };
            st.defined.insert(name.clone(), line);
            if let Some(expansion) = expansion(b, function_like, &params, body, &st.defs) {
                all_idents.set(true);
                st.defs.insert(
                    name,
                    Def {
                        function_like,
                        expansion,
                        span: line,
                    },
                );
            }
        },
        |span, model| {
            state.borrow_mut().operators.push(RawPragma {
                span,
                form: PragmaForm::Operator,
                model,
            })
        },
        |span, first| {
            let mut st = state.borrow_mut();
            let st = &mut *st;
            let name = &text[span.start..span.end];
            if !st.defs.is_empty() {
                if let Some(def) = st.defs.get(name) {
                    expand_use(b, name, span, def, &mut st.found);
                    return;
                }
            }
            // Cheap structural test first: most lines go on after their first word.
            // A keyword the file does not define cannot be a use to report.
            if first
                && !(is_c_keyword(name)
                    && (st.defined.is_empty() || !st.defined.contains_key(name)))
            {
                if let Some(u) = unknown_use(b, name, span) {
                    match st.defined.get(name) {
                        // `P(omp for)` with a `P` of the file that is not
                        // expanded (`#define P(x) OTHER(x)`): a pragma is lost.
                        Some(&define_span) if u.pragma_argument => {
                            st.found.opaque.push(OpaqueUse {
                                name: u.name,
                                use_span: u.use_span,
                                define_span,
                            })
                        }
                        Some(_) => {}
                        None if C_KEYWORDS.contains(&name) => {}
                        None => st.found.unknown.push(u),
                    }
                }
            }
        },
        &all_idents,
    );
    let State {
        mut found,
        operators,
        ..
    } = state.into_inner();
    if !operators.is_empty() {
        found.pragmas.extend(operators);
        found.pragmas.sort_by_key(|p| p.span.start);
    }
    found
}

#[derive(Default)]
struct State {
    found: Found,
    operators: Vec<RawPragma>,
    defs: HashMap<String, Def>,
    /// Every name the file defines, with its `#define` line.
    defined: HashMap<String, Span>,
}

/// Records the pragmas of one use of a pragma macro of the file.
fn expand_use(b: &[u8], name: &str, span: Span, def: &Def, found: &mut Found) {
    let mut use_span = span;
    let mut args = None;
    if def.function_like {
        let open = skip_blank(b, span.end, b.len(), true);
        if b.get(open) != Some(&b'(') {
            return; // the name without arguments is not a use
        }
        let Some(close) = matching_paren(b, open, b.len()) else {
            return;
        };
        use_span = Span::new(span.start, close);
        args = Some(inner(b, open, close));
    }
    let mut push = |text: Span, model: Model| {
        found.from_macros.push(MacroPragma {
            name: name.to_string(),
            use_span,
            text,
            model,
            define_span: def.span,
        })
    };
    match &def.expansion {
        Expansion::Operators(ops) => {
            for (s, m) in ops {
                push(*s, *m);
            }
        }
        Expansion::Text(s, m) => push(*s, *m),
        Expansion::Stringize => {
            if let Some(a) = args {
                if let Some(m) = text_model(b, a) {
                    push(a, m);
                }
            }
        }
        Expansion::Opaque => found.opaque.push(OpaqueUse {
            name: name.to_string(),
            use_span,
            define_span: def.span,
        }),
    }
}

/// `NAME` or `NAME(...)` alone on its line, followed by a `for` loop.
fn unknown_use(b: &[u8], name: &str, span: Span) -> Option<UnknownUse> {
    // Cheap tests first: most lines go on with an operator after their first
    // word, or end with `;`, `{`, `}` or `,`.
    let after = skip_blank(b, span.end, b.len(), false);
    if !matches!(b.get(after), None | Some(b'(' | b'\n' | b'\r' | b'/')) {
        return None;
    }
    let eol = b[span.end..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| span.end + p);
    let last = b[span.end..eol]
        .iter()
        .rev()
        .find(|c| !c.is_ascii_whitespace());
    if matches!(last, Some(b';' | b'{' | b'}' | b',' | b'=')) {
        return None;
    }
    let mut end = span.end;
    let mut pragma_argument = false;
    let open = skip_blank(b, end, b.len(), false);
    if b.get(open) == Some(&b'(') {
        let close = matching_paren(b, open, b.len().min(open + 4096))?;
        pragma_argument = text_model(b, inner(b, open, close)).is_some();
        end = close;
    }
    // Nothing else on the line...
    let eol = skip_blank(b, end, b.len(), false);
    let line_ends = match b.get(eol) {
        None | Some(b'\n') | Some(b'\r') => true,
        Some(b'/') => b.get(eol + 1) == Some(&b'/'),
        _ => false,
    };
    if !line_ends {
        return None;
    }
    // ... and the next token is `for`.
    let next = skip_blank(b, eol, b.len(), true);
    let is_for = b[next.min(b.len())..].starts_with(b"for")
        && !b.get(next + 3).is_some_and(|c| is_ident_byte(*c));
    if !is_for && !pragma_argument {
        return None;
    }
    Some(UnknownUse {
        name: name.to_string(),
        use_span: Span::new(span.start, end),
        pragma_argument,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_match_is_the_table() {
        for k in C_KEYWORDS {
            assert!(is_c_keyword(k), "{k}");
        }
        for w in ["", "fo", "forr", "For", "printf", "x", "_Pragma", "intt"] {
            assert_eq!(is_c_keyword(w), C_KEYWORDS.contains(&w), "{w}");
        }
    }

    fn uses(t: &str) -> Vec<(String, &str, &str)> {
        find_all(t)
            .from_macros
            .iter()
            .map(|m| {
                (
                    m.name.clone(),
                    &t[m.use_span.start..m.use_span.end],
                    &t[m.text.start..m.text.end],
                )
            })
            .collect()
    }

    #[test]
    fn object_like_operator_macros() {
        let t = "#define PAR _Pragma(\"omp parallel for\")\n#define TWO \\\n _Pragma(\"acc data\") /* c */ _Pragma(\"acc loop\")\nvoid f(){\n  PAR\n  for(;;);\n  TWO for(;;);\n  int PARX; // PAR\n  char *s = \"PAR\";\n}\n";
        assert_eq!(
            uses(t),
            [
                ("PAR".into(), "PAR", "_Pragma(\"omp parallel for\")"),
                ("TWO".into(), "TWO", "_Pragma(\"acc data\")"),
                ("TWO".into(), "TWO", "_Pragma(\"acc loop\")"),
            ]
        );
        let f = find_all(t);
        assert!(f.pragmas.is_empty() && f.opaque.is_empty() && f.unknown.is_empty());
        assert_eq!(f.from_macros[1].model, Model::Acc);
    }

    #[test]
    fn stringizing_macros() {
        let t = "#define DO_PRAGMA(x) _Pragma( # x )\n#define P2(...) _Pragma(#__VA_ARGS__)\n#define ACC DO_PRAGMA(acc parallel loop gang)\n#define IVDEP DO_PRAGMA(GCC ivdep)\nvoid f(){\n  DO_PRAGMA(omp target teams map(to: a[0:(n)]))\n  for(;;);\n  P2(omp for)\n  ACC\n  IVDEP\n  DO_PRAGMA\n}\n";
        assert_eq!(
            uses(t),
            [
                (
                    "DO_PRAGMA".into(),
                    "DO_PRAGMA(omp target teams map(to: a[0:(n)]))",
                    "omp target teams map(to: a[0:(n)])"
                ),
                ("P2".into(), "P2(omp for)", "omp for"),
                ("ACC".into(), "ACC", "acc parallel loop gang"),
            ]
        );
    }

    #[test]
    fn opaque_and_undef_and_redefinition() {
        let t = "#define LOOP(n) _Pragma(\"omp parallel for\") for (int i = 0; i < n; i++)\n#ifdef _OPENMP\n#define PAR _Pragma(\"omp for\")\n#else\n#define PAR\n#endif\nvoid f(){\n LOOP(3) g(i);\n PAR\n for(;;);\n}\n#undef PAR\nPAR\n";
        let f = find_all(t);
        assert_eq!(f.opaque.len(), 1);
        // A macro of the file that is not expanded, with a pragma argument.
        let t2 = "#define P(x) Q(x)\nvoid f(){\n P(omp parallel for)\n for(;;);\n P(x)\n}\n";
        let f2 = find_all(t2);
        assert_eq!(f2.opaque.len(), 1);
        assert_eq!(
            &t2[f2.opaque[0].use_span.start..f2.opaque[0].use_span.end],
            "P(omp parallel for)"
        );
        assert!(f2.unknown.is_empty());
        assert_eq!(
            &t[f.opaque[0].use_span.start..f.opaque[0].use_span.end],
            "LOOP(3)"
        );
        assert_eq!(f.from_macros.len(), 1);
        assert_eq!(
            t[..f.from_macros[0].use_span.start].matches('\n').count(),
            8
        );
    }

    #[test]
    fn unknown_macros_before_loops() {
        let t = "#include \"par.h\"\n#define KNOWN\nvoid f(int n){\n  OMP_PAR\n  for(;;);\n  PRAGMA(omp parallel for)\n  x = 1;\n  KNOWN\n  for(;;);\n  else\n  for(;;);\n  g(1)\n  ;\n  h(2) // c\n  /* c */\n  for (;;);\n  y\n  = 2;\n  forx\n  for(;;);\n  PRAGMA(GCC ivdep)\n  while(1);\n}\n";
        let f = find_all(t);
        let got: Vec<(&str, bool)> = f
            .unknown
            .iter()
            .map(|u| (&t[u.use_span.start..u.use_span.end], u.pragma_argument))
            .collect();
        assert_eq!(
            got,
            [
                ("OMP_PAR", false),
                ("PRAGMA(omp parallel for)", true),
                ("h(2)", false),
                ("forx", false)
            ]
        );
    }

    #[test]
    fn odd_input() {
        for t in [
            "#define",
            "#define X(",
            "#define X(a _Pragma(#a)\nX(",
            "#define P(x) _Pragma(#x)\nP(omp for",
            "#define P(x) _Pragma(#x)\n#define Q P(\nQ\n",
            "A(",
            "A\n",
            "#undef",
            "#define X _Pragma(\"omp for\"\nX",
        ] {
            let _ = find_all(t);
        }
    }
}
