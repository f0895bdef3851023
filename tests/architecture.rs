//! The house rules, checked on the source text (rust-analyzer's tidy style):
//! which stage may import which, and how long a function of `src/emit` and
//! `src/lower` may be. ARCHITECTURE.md states each rule as an "Architecture
//! Invariant" and names the test here that checks it.
//!
//! The rules are the target. What the code does not meet yet is listed in
//! `KNOWN_VIOLATIONS` and `LONG_FUNCTIONS`, each entry with the issue that
//! removes it; an entry that no longer occurs fails the test as well, so the
//! lists only shrink. The failure message prints the lists as they should be.
//!
//! An import is a path `crate::X` (also inside `use crate::{X, Y::Z}`) or
//! `super::` climbing to the crate root, in code: comments, strings and
//! `#[cfg(test)]` items are not read (a unit test may build its input with an
//! earlier or later stage).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Stages every stage may use: small helpers with no pipeline knowledge.
const ANYWHERE: &[&str] = &["big_stack"];

/// For each stage (a folder of `src/`, or `driver.rs` / `cli`), the stages
/// it may import. A stage's own modules are always allowed.
///
/// `ir::c` (the folder `src/ir/c/`) is a stage of its own: the C-level plain
/// data (types, symbols, data-sharing attributes, loop nests, sections) the
/// directive parser and semantic analysis build and the IR is made of, as
/// naga's front ends build naga's types. The stages before lowering may
/// import it and nothing else of `ir`; it imports nothing of the rest of
/// `ir`. A stage allowed `ir` is allowed `ir::c`.
const RULES: &[(&str, &[&str])] = &[
    ("source", &["diag"]),
    ("diag", &["source"]),
    ("ir::c", &["source", "diag"]),
    ("directives", &["source", "diag", "ir::c"]),
    ("front", &["source", "diag", "directives", "ir::c"]),
    ("sema", &["source", "diag", "directives", "front", "ir::c"]),
    (
        "valid",
        &["source", "diag", "directives", "front", "sema", "ir::c"],
    ),
    ("files", &["source", "diag"]),
    ("ir", &["source", "diag"]),
    (
        "lower",
        &[
            "source",
            "diag",
            "directives",
            "front",
            "sema",
            "valid",
            "ir",
        ],
    ),
    ("emit", &["ir", "source", "diag"]),
    (
        "report",
        &[
            "source",
            "diag",
            "directives",
            "front",
            "sema",
            "valid",
            "ir",
            "lower",
        ],
    ),
    (
        "driver",
        &[
            "source",
            "diag",
            "directives",
            "front",
            "sema",
            "valid",
            "ir",
            "lower",
            "emit",
            "report",
        ],
    ),
    (
        "lsp",
        &[
            "source",
            "diag",
            "directives",
            "front",
            "sema",
            "valid",
            "ir",
            "lower",
            "emit",
            "report",
            "driver",
        ],
    ),
    (
        "tools",
        &[
            "source",
            "diag",
            "directives",
            "front",
            "sema",
            "valid",
            "ir",
            "lower",
            "emit",
            "report",
            "driver",
            "files",
        ],
    ),
    (
        "cli",
        &[
            "source",
            "diag",
            "directives",
            "front",
            "sema",
            "valid",
            "ir",
            "lower",
            "emit",
            "report",
            "driver",
            "lsp",
            "files",
            "tools",
        ],
    ),
];

/// Names the library root re-exports from `driver` (`crate::translate`).
const DRIVER_REEXPORTS: &[&str] = &[
    "translate",
    "lower_region_at",
    "EditorSession",
    "Emit",
    "Options",
    "RegionView",
    "Translation",
];

/// Imports the rules forbid that the code still has: (file, stage it
/// imports). 44 entries when the list was written (session 9); the CLI's
/// move into the binary, `source::Model` and src/ir took 32 of them, and
/// `ir::c` (the IR's own C-level types) with the loop-counter decision
/// moved into lower the last 12 (#16). Empty: keep it so.
const KNOWN_VIOLATIONS: &[(&str, &str)] = &[];

/// Functions of `src/emit` and `src/lower` longer than [`MAX_FN_LINES`]
/// today: (file, function); the comment gives its length when listed.
/// Empty since session 10 (#16 split `emit_generic`, `kernel_text` and
/// `host_text`); keep it so.
const LONG_FUNCTIONS: &[(&str, &str)] = &[];

/// The longest function `src/emit` and `src/lower` may hold, in lines from
/// `fn` to its closing brace.
const MAX_FN_LINES: usize = 150;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every file of `src/` as (path relative to the crate, text), sorted.
fn sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = fs::read_to_string(&p).unwrap();
            (rel, text)
        })
        .collect()
}

/// The stage of a file: its folder under `src/`, or the file's stem
/// (`src/driver.rs`, `src/driver/editor.rs` are both `driver`); `ir::c` for
/// the files of `src/ir/c/`. `None` for the crate root and the binary.
fn stage_of(rel: &str) -> Option<&str> {
    if rel.starts_with("src/ir/c/") {
        return Some("ir::c");
    }
    let rest = rel.strip_prefix("src/")?;
    let first = rest.split('/').next()?;
    let stage = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(stage, "lib" | "main")).then_some(stage)
}

/// The module path of a file (`src/emit/cxx/mod.rs` → [emit, cxx]).
fn module_path(rel: &str) -> Vec<String> {
    let rest = rel.strip_prefix("src/").unwrap_or(rel);
    let rest = rest.strip_suffix(".rs").unwrap_or(rest);
    let mut parts: Vec<String> = rest.split('/').map(str::to_string).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// `text` with comments, string and character literals blanked (newlines
/// kept, so byte offsets and line numbers stay).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            i + rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            j
        } else if rest.starts_with(b"r#") || rest.starts_with(b"r\"") || rest.starts_with(b"br") {
            let start = if rest[0] == b'b' { 1 } else { 0 };
            let hashes = rest[start + 1..].iter().take_while(|&&c| c == b'#').count();
            if rest.get(start + 1 + hashes) != Some(&b'"')
                || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            {
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat(b'#').take(hashes))
                .collect();
            let body = i + start + 2 + hashes;
            body + find(&b[body..], &close)
                .map(|k| k + close.len())
                .unwrap_or(b.len() - body)
        } else if rest[0] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            j + 1
        } else if rest[0] == b'\'' {
            if rest.get(1) == Some(&b'\\') {
                i + 2
                    + rest[2..]
                        .iter()
                        .position(|&c| c == b'\'')
                        .map(|k| k + 1)
                        .unwrap_or(0)
            } else if rest.len() > 2
                && rest[1] != b'\''
                && char_len(&rest[1..]).is_some_and(|n| rest.get(1 + n) == Some(&b'\''))
            {
                i + 2 + char_len(&rest[1..]).unwrap()
            } else {
                i + 1 // a lifetime
            }
        } else {
            i += 1;
            continue;
        };
        blank(&mut out, i, end);
        i = end.max(i + 1);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Bytes of the UTF-8 character at the start of `b`.
fn char_len(b: &[u8]) -> Option<usize> {
    std::str::from_utf8(&b[..b.len().min(4)])
        .ok()
        .or_else(|| {
            (1..4)
                .rev()
                .find_map(|n| std::str::from_utf8(&b[..n.min(b.len())]).ok())
        })
        .and_then(|s| s.chars().next())
        .map(char::len_utf8)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// `code` with every `#[cfg(test)]` item blanked (to its closing brace or
/// semicolon); also the names of `#[cfg(test)] mod x;` files.
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut out = code.to_string();
    let mut test_mods = Vec::new();
    let mut from = 0;
    while let Some(at) = out[from..].find("#[cfg(test)]").map(|k| k + from) {
        let b = out.as_bytes();
        let mut j = at + "#[cfg(test)]".len();
        while j < b.len() && b[j] != b'{' && b[j] != b';' {
            j += 1;
        }
        if j < b.len() && b[j] == b';' {
            let words: Vec<&str> = out[at + 12..j].split_whitespace().collect();
            if let Some(pos) = words.iter().position(|w| *w == "mod") {
                if let Some(name) = words.get(pos + 1) {
                    test_mods.push(name.to_string());
                }
            }
        } else {
            let mut depth = 0usize;
            while j < b.len() {
                match b[j] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        let end = (j + 1).min(out.len());
        let blanked: String = out[at..end]
            .chars()
            .map(|c| if c == '\n' { c } else { ' ' })
            .collect();
        out.replace_range(at..end, &blanked);
        from = end;
    }
    (out, test_mods)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The first name of a path (`lower` of `lower::build::x`), or `ir::c` for
/// a path into the IR's C-level types (`ir::c::CType`, `ir::c::{..}`).
fn foundation(path: &str) -> String {
    let name: String = path
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let rest = &path[name.len()..];
    let c = rest
        .strip_prefix("::c")
        .is_some_and(|r| !r.starts_with(|ch: char| ch.is_alphanumeric() || ch == '_'));
    if name == "ir" && c {
        "ir::c".to_string()
    } else {
        name
    }
}

/// The top-level modules a file's code names through `crate::` (or
/// `super::` up to the crate root), with the line of each.
fn imports(rel: &str, code: &str) -> Vec<(String, usize)> {
    let depth = module_path(rel).len();
    let b = code.as_bytes();
    let mut found = Vec::new();
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut i = 0;
    while i < b.len() {
        if i > 0 && (is_ident(b[i - 1]) || b[i - 1] == b':') {
            i += 1;
            continue;
        }
        let rest = &code[i..];
        let after = if let Some(r) = rest.strip_prefix("crate::") {
            Some(r)
        } else if rest.starts_with("super::") {
            let mut r = rest;
            let mut n = 0;
            while let Some(x) = r.strip_prefix("super::") {
                r = x;
                n += 1;
            }
            // `super::` out of `ir::c` into the rest of `ir`: an import of `ir`.
            let from = module_path(rel);
            if n < depth && from.len() >= 2 && from[0] == "ir" && from[1] == "c" && depth - n == 1 {
                found.push((foundation(&format!("ir::{}", r.trim_start())), line_of(i)));
            }
            (n >= depth).then_some(r)
        } else {
            None
        };
        if let Some(r) = after {
            let at = code.len() - r.len();
            let r = r.trim_start();
            if let Some(group) = r.strip_prefix('{') {
                // `crate::{a::b, c, d::{e, f}}`: the first name of each item.
                let mut level = 0;
                let mut item_start = true;
                for (k, c) in group.char_indices() {
                    match c {
                        '{' => level += 1,
                        '}' if level == 0 => break,
                        '}' => level -= 1,
                        ',' if level == 0 => item_start = true,
                        c if item_start && (c.is_alphanumeric() || c == '_') => {
                            let name = foundation(&group[k..]);
                            found.push((name, line_of(at)));
                            item_start = false;
                        }
                        _ => {}
                    }
                }
            } else {
                let name = foundation(r);
                if !name.is_empty() {
                    found.push((name, line_of(at)));
                }
            }
        }
        i += 1;
    }
    found
}

/// The stage a top-level name of the crate belongs to.
fn stage_of_name(name: &str) -> &str {
    if DRIVER_REEXPORTS.contains(&name) {
        "driver"
    } else {
        name
    }
}

/// Every import that breaks [`RULES`]: (file, imported stage) → first line.
fn violations(files: &[(String, String)]) -> BTreeMap<(String, String), usize> {
    let mut test_files = BTreeSet::new();
    let mut prepared = Vec::new();
    for (rel, text) in files {
        let (code, test_mods) = without_tests(&code_only(text));
        let dir = Path::new(rel)
            .parent()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for m in test_mods {
            test_files.insert(format!("{dir}/{m}.rs"));
        }
        prepared.push((rel, code));
    }
    let mut out = BTreeMap::new();
    for (rel, code) in prepared {
        if test_files.contains(rel.as_str()) {
            continue;
        }
        let Some(stage) = stage_of(rel).filter(|s| !ANYWHERE.contains(s)) else {
            continue;
        };
        let allowed = RULES
            .iter()
            .find(|(s, _)| *s == stage)
            .map(|(_, a)| *a)
            .unwrap_or_else(|| panic!("{rel}: stage `{stage}` has no rule in RULES"));
        for (name, line) in imports(rel, &code) {
            let to = stage_of_name(&name);
            // `ir::c` belongs to `ir`: allowed where `ir` is, and own in `ir`.
            let base = to.split("::").next().unwrap_or(to);
            let own = to == stage || base == stage;
            let is_stage = RULES.iter().any(|(s, _)| *s == to || *s == base);
            if own
                || !is_stage
                || ANYWHERE.contains(&to)
                || allowed.contains(&to)
                || allowed.contains(&base)
            {
                continue;
            }
            out.entry((rel.clone(), to.to_string())).or_insert(line);
        }
    }
    out
}

/// Functions of `code` (comments and strings blanked): (name, first line,
/// lines from `fn` to its closing brace).
fn functions(code: &str) -> Vec<(String, usize, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("fn ").map(|k| k + from) {
        from = at + 3;
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let name: String = code[at + 3..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        let mut j = at;
        while j < b.len() && b[j] != b'{' && b[j] != b';' {
            j += 1;
        }
        if j >= b.len() || b[j] == b';' {
            continue;
        }
        let mut depth = 0usize;
        let mut k = j;
        while k < b.len() {
            match b[k] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            k += 1;
        }
        let first = code[..at].matches('\n').count() + 1;
        let last = code[..k.min(b.len())].matches('\n').count() + 1;
        out.push((name, first, last - first + 1));
    }
    out
}

/// Functions of src/emit and src/lower over [`MAX_FN_LINES`]:
/// (file, name) → lines.
fn long_functions(files: &[(String, String)]) -> BTreeMap<(String, String), usize> {
    let mut out = BTreeMap::new();
    for (rel, text) in files {
        if !(rel.starts_with("src/emit/") || rel.starts_with("src/lower/")) {
            continue;
        }
        let (code, _) = without_tests(&code_only(text));
        for (name, _, lines) in functions(&code) {
            if lines > MAX_FN_LINES {
                let e = out.entry((rel.clone(), name)).or_insert(0);
                *e = lines.max(*e);
            }
        }
    }
    out
}

/// Compares what the code has with an allowlist; the message names what is
/// new (a broken rule) and what is listed but gone (delete the entry).
fn compare<V: std::fmt::Display>(
    what: &str,
    found: &BTreeMap<(String, String), V>,
    listed: &[(&str, &str)],
) -> Vec<String> {
    let listed: BTreeSet<(String, String)> = listed
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let mut msgs = Vec::new();
    for ((file, x), v) in found {
        if !listed.contains(&(file.clone(), x.clone())) {
            msgs.push(format!("{what}: {file} → {x} ({v}) breaks the rule"));
        }
    }
    for (file, x) in &listed {
        if !found.contains_key(&(file.clone(), x.clone())) {
            msgs.push(format!(
                "{what}: ({file:?}, {x:?}) no longer occurs: delete it from the list"
            ));
        }
    }
    msgs
}

#[test]
fn stages_import_only_earlier_stages() {
    let found = violations(&sources());
    let msgs = compare("import", &found, KNOWN_VIOLATIONS);
    assert!(
        msgs.is_empty(),
        "{}\n\nthe imports the rules forbid today (line of the first):\n{}",
        msgs.join("\n"),
        found
            .iter()
            .map(|((f, s), l)| format!("    ({f:?}, {s:?}), // line {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn emit_and_lower_functions_fit_on_a_screen() {
    let found = long_functions(&sources());
    let msgs = compare("function", &found, LONG_FUNCTIONS);
    assert!(
        msgs.is_empty(),
        "{}\n\nthe functions over {MAX_FN_LINES} lines today:\n{}",
        msgs.join("\n"),
        found
            .iter()
            .map(|((f, n), l)| format!("    ({f:?}, {n:?}), // {l} lines"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Every stage of `src/` has a rule (a new folder must say what it imports).
#[test]
fn every_stage_has_a_rule() {
    for (rel, _) in sources() {
        if let Some(stage) = stage_of(&rel) {
            assert!(
                ANYWHERE.contains(&stage) || RULES.iter().any(|(s, _)| *s == stage),
                "{rel}: add stage `{stage}` to RULES"
            );
        }
    }
}

/// The checker sees a backward import, in every spelling, and nothing in
/// comments, strings or unit tests.
#[test]
fn checker_catches_a_backward_import() {
    let file = |rel: &str, text: &str| vec![(rel.to_string(), text.to_string())];
    let found = |rel: &str, text: &str| -> Vec<(String, String)> {
        violations(&file(rel, text)).into_keys().collect()
    };
    let emit_lower = vec![("src/emit/x.rs".to_string(), "lower".to_string())];
    assert_eq!(
        found("src/emit/x.rs", "use crate::lower::build;\n"),
        emit_lower
    );
    assert_eq!(
        found("src/emit/x.rs", "use crate::{diag::D, lower::{a, b}};\n"),
        emit_lower
    );
    assert_eq!(
        found("src/emit/x.rs", "fn f() { crate::lower::g(); }\n"),
        emit_lower
    );
    assert_eq!(
        found("src/emit/x.rs", "fn f() { super::super::lower::g(); }\n"),
        emit_lower
    );
    assert_eq!(
        found("src/source/x.rs", "use crate::directives::Model;\n"),
        vec![("src/source/x.rs".to_string(), "directives".to_string())]
    );
    assert_eq!(
        found("src/tools/x.rs", "use crate::cli::Args;\n"),
        vec![("src/tools/x.rs".to_string(), "cli".to_string())]
    );
    // Allowed, or not code.
    let quiet = [
        "use crate::source::Span;\nuse crate::ir::Module;\nuse super::namer;\n",
        "// use crate::lower::build;\n/* crate::lower */ fn f() { let s = \"crate::lower\"; }\n",
        "fn f() { let s = r#\"crate::lower\"#; let c = '\"'; let d = crate::diag::E; }\n",
        "#[cfg(test)]\nmod tests {\n    use crate::lower::build;\n}\n",
        "fn f<'a>(x: &'a str) { crate::source::g(x) }\n",
    ];
    for text in quiet {
        assert_eq!(found("src/emit/x.rs", text), vec![], "{text}");
    }
    assert_eq!(found("src/cli/x.rs", "use crate::lower::build;\n"), vec![]);
}

/// The stages before lowering may import the IR's C-level types (`ir::c`)
/// and nothing else of `ir`; `ir::c` imports nothing of the rest of `ir`
/// nor of a later stage.
#[test]
fn checker_keeps_ir_c_a_foundation() {
    let found = |rel: &str, text: &str| -> Vec<(String, String)> {
        violations(&[(rel.to_string(), text.to_string())])
            .into_keys()
            .collect()
    };
    let pair = |f: &str, s: &str| vec![(f.to_string(), s.to_string())];
    let quiet = [
        "use crate::ir::c::CType;\n",
        "use crate::ir::c::{Attr, VarAttr};\n",
        "use crate::{ir::c::Symbol, source::Span};\n",
        "fn f() -> crate::ir::c::Arith { todo!() }\n",
    ];
    for text in quiet {
        assert_eq!(found("src/sema/x.rs", text), vec![], "{text}");
        assert_eq!(found("src/directives/x.rs", text), vec![], "{text}");
        assert_eq!(found("src/ir/x.rs", text), vec![], "{text}");
        assert_eq!(found("src/emit/x.rs", text), vec![], "{text}");
    }
    for text in [
        "use crate::ir::Region;\n",
        "use crate::ir::{c::CType, Region};\n",
        "use crate::ir::cfg::X;\n",
        "use crate::{ir::region::Region, source::Span};\n",
    ] {
        assert_eq!(
            found("src/sema/x.rs", text),
            pair("src/sema/x.rs", "ir"),
            "{text}"
        );
    }
    assert_eq!(
        found("src/ir/c/x.rs", "use crate::ir::Module;\n"),
        pair("src/ir/c/x.rs", "ir")
    );
    assert_eq!(
        found("src/ir/c/x.rs", "use crate::sema::CType;\n"),
        pair("src/ir/c/x.rs", "sema")
    );
    assert_eq!(
        found(
            "src/ir/c/x.rs",
            "use crate::source::Span;\nuse crate::ir::c::Arith;\n"
        ),
        vec![]
    );
    // `super::` paths that climb out of `ir::c`.
    assert_eq!(
        found("src/ir/c/x.rs", "use super::super::Region;\n"),
        pair("src/ir/c/x.rs", "ir")
    );
    assert_eq!(
        found("src/ir/c/mod.rs", "use super::Module;\n"),
        pair("src/ir/c/mod.rs", "ir")
    );
    assert_eq!(
        found(
            "src/ir/c/x.rs",
            "use super::CType;\nuse super::super::c::Arith;\n"
        ),
        vec![]
    );
}

#[test]
fn checker_measures_functions() {
    let text =
        "fn short() {\n}\n/* fn fake() { */\nfn long() {\n    let s = \"}\";\n    if x { y }\n}\n";
    let fns = functions(&code_only(text));
    assert_eq!(
        fns,
        vec![("short".to_string(), 1, 2), ("long".to_string(), 4, 4)]
    );
}

/// A function of src/emit or src/lower one line over the limit is found
/// (and one in another stage is not).
#[test]
fn checker_finds_a_long_function() {
    let long = format!("fn big() {{\n{}}}\n", "    x();\n".repeat(MAX_FN_LINES - 1));
    let fits = format!("fn ok() {{\n{}}}\n", "    x();\n".repeat(MAX_FN_LINES - 2));
    let files = vec![
        ("src/emit/x.rs".to_string(), long.clone()),
        ("src/lower/y.rs".to_string(), fits),
        ("src/sema/z.rs".to_string(), long),
    ];
    let found: Vec<_> = long_functions(&files).into_iter().collect();
    assert_eq!(
        found,
        vec![(
            ("src/emit/x.rs".to_string(), "big".to_string()),
            MAX_FN_LINES + 1
        )]
    );
    assert!(!compare("function", &long_functions(&files), LONG_FUNCTIONS).is_empty());
}
