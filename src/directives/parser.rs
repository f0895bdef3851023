//! Recursive-descent parser for directive text (interim version; the full
//! grammar-driven parser replaces it).

use super::ast::*;
use crate::diag::{codes, Diagnostic};
use crate::source::Span;

struct P<'a> {
    src: &'a str,
    pos: usize,
    end: usize,
    diags: Vec<Diagnostic>,
}

const OMP_WORDS: &[&str] = &["target", "teams", "distribute", "parallel", "for", "simd", "loop", "data", "enter", "exit", "update", "declare", "begin", "end", "sections", "section", "single", "master", "masked", "critical", "atomic", "barrier", "taskwait", "task", "taskloop", "ordered", "flush", "requires", "threadprivate", "scan", "taskgroup", "taskyield", "cancel", "metadirective", "reduction", "variant", "mapper", "interop", "dispatch", "allocate", "tile", "unroll", "nothing", "error", "assume", "scope"];
const ACC_WORDS: &[&str] = &["parallel", "kernels", "serial", "loop", "data", "enter", "exit", "host_data", "cache", "atomic", "declare", "init", "shutdown", "set", "update", "wait", "routine", "end"];

impl<'a> P<'a> {
    fn skip_ws(&mut self) {
        let b = self.src.as_bytes();
        while self.pos < self.end {
            let c = b[self.pos];
            if c == b' ' || c == b'\t' || c == b'\r' || c == b'\n' {
                self.pos += 1;
            } else if c == b'\\' && matches!(b.get(self.pos + 1), Some(b'\n') | Some(b'\r')) {
                self.pos += 2;
            } else if c == b'/' && b.get(self.pos + 1) == Some(&b'*') {
                self.pos = self.src[self.pos + 2..self.end].find("*/").map(|p| self.pos + 2 + p + 2).unwrap_or(self.end);
            } else if c == b'/' && b.get(self.pos + 1) == Some(&b'/') {
                self.pos = self.end;
            } else {
                break;
            }
        }
    }

    fn word(&mut self) -> Option<Word> {
        self.skip_ws();
        let b = self.src.as_bytes();
        let s = self.pos;
        while self.pos < self.end && (b[self.pos].is_ascii_alphanumeric() || b[self.pos] == b'_') {
            self.pos += 1;
        }
        if self.pos == s {
            None
        } else {
            Some(Word { text: self.src[s..self.pos].to_string(), span: Span::new(s, self.pos) })
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        if self.pos < self.end {
            Some(self.src.as_bytes()[self.pos])
        } else {
            None
        }
    }

    fn normalise(text: &str) -> String {
        let t = text.replace("\\\r\n", " ").replace("\\\n", " ");
        t.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// An expression up to (not including) one of `stops` at nesting depth 0.
    fn expr(&mut self, stops: &[u8]) -> Option<ExprText> {
        self.skip_ws();
        let b = self.src.as_bytes();
        let s = self.pos;
        let mut depth = 0i32;
        while self.pos < self.end {
            let c = b[self.pos];
            if depth == 0 && stops.contains(&c) {
                // `::` is not a stop for ':'
                if c == b':' && b.get(self.pos + 1) == Some(&b':') {
                    self.pos += 2;
                    continue;
                }
                break;
            }
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth -= 1;
                    if depth < 0 {
                        break;
                    }
                }
                b'"' | b'\'' => {
                    self.pos += 1;
                    while self.pos < self.end && b[self.pos] != c {
                        if b[self.pos] == b'\\' {
                            self.pos += 1;
                        }
                        self.pos += 1;
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
        self.pos = self.pos.min(self.end);
        let raw = &self.src[s..self.pos];
        let trimmed_end = s + raw.trim_end().len();
        if trimmed_end == s {
            return None;
        }
        Some(ExprText { text: Self::normalise(&self.src[s..trimmed_end]), span: Span::new(s, trimmed_end) })
    }

    fn list_item(&mut self) -> Option<ListItem> {
        let w = self.word()?;
        let mut path = String::new();
        let mut sections = Vec::new();
        loop {
            match self.peek() {
                Some(b'.') => {
                    self.pos += 1;
                    let f = self.word()?;
                    path.push('.');
                    path.push_str(&f.text);
                }
                Some(b'-') if self.src.as_bytes().get(self.pos + 1) == Some(&b'>') => {
                    self.pos += 2;
                    let f = self.word()?;
                    path.push_str("->");
                    path.push_str(&f.text);
                }
                Some(b'[') => {
                    let s = self.pos;
                    self.pos += 1;
                    let lower = self.expr(b":]");
                    let mut length = None;
                    let mut stride = None;
                    let mut is_index = true;
                    if self.peek() == Some(b':') {
                        is_index = false;
                        self.pos += 1;
                        length = self.expr(b":]");
                        if self.peek() == Some(b':') {
                            self.pos += 1;
                            stride = self.expr(b"]");
                        }
                    }
                    if self.peek() != Some(b']') {
                        return None;
                    }
                    self.pos += 1;
                    sections.push(Section { lower, length, stride, is_index, span: Span::new(s, self.pos) });
                }
                _ => break,
            }
        }
        Some(ListItem { name: w.text.clone(), name_span: w.span, path, sections, span: Span::new(w.span.start, self.pos) })
    }

    fn clause(&mut self, name: Word) -> Option<Clause> {
        let lname = name.text.to_ascii_lowercase();
        if self.peek() != Some(b'(') {
            return Some(Clause { name: lname, name_span: name.span, args: ClauseArgs::None, span: name.span });
        }
        let open = self.pos;
        self.pos += 1;
        let list_clauses = [
            "map", "private", "firstprivate", "lastprivate", "shared", "reduction", "copy", "copyin", "copyout", "create",
            "present", "delete", "deviceptr", "attach", "detach", "is_device_ptr", "use_device_ptr", "use_device_addr",
            "has_device_addr", "to", "from", "link", "enter", "in_reduction", "task_reduction", "linear", "aligned",
            "nontemporal", "uniform", "use_device", "device_resident", "host", "device", "self", "no_create", "pcopy",
            "pcopyin", "pcopyout", "pcreate", "present_or_copy", "present_or_copyin", "present_or_copyout",
            "present_or_create", "allocate", "copyprivate", "inclusive", "exclusive", "cache",
        ];
        let expr_clauses = [
            "num_teams", "thread_limit", "num_threads", "num_gangs", "num_workers", "vector_length", "collapse", "if",
            "device", "final", "priority", "grainsize", "num_tasks", "safelen", "simdlen", "ordered", "async", "self",
        ];
        let args = if list_clauses.contains(&lname.as_str()) && !(lname == "device" || lname == "self") {
            // modifiers before a top-level ':' (not '::')
            let save = self.pos;
            let mut modifiers = Vec::new();
            let colon = {
                let mut depth = 0;
                let b = self.src.as_bytes();
                let mut i = self.pos;
                let mut found = None;
                while i < self.end {
                    match b[i] {
                        b'(' | b'[' => depth += 1,
                        b')' | b']' => {
                            if depth == 0 {
                                break;
                            }
                            depth -= 1
                        }
                        b':' if depth == 0 && b.get(i + 1) != Some(&b':') && (i == 0 || b[i - 1] != b':') => {
                            found = Some(i);
                            break;
                        }
                        _ => {}
                    }
                    i += 1;
                }
                found
            };
            if let Some(c) = colon {
                while self.pos < c {
                    self.skip_ws();
                    if self.pos >= c {
                        break;
                    }
                    let s = self.pos;
                    let b = self.src.as_bytes();
                    if b[s].is_ascii_alphanumeric() || b[s] == b'_' {
                        let w = self.word()?;
                        modifiers.push(w);
                    } else {
                        // operator identifiers: + * - & | ^ && ||
                        let mut e = s;
                        while e < c && !b[e].is_ascii_whitespace() && b[e] != b',' {
                            e += 1;
                        }
                        modifiers.push(Word { text: self.src[s..e].to_string(), span: Span::new(s, e) });
                        self.pos = e;
                    }
                    if self.peek() == Some(b',') {
                        self.pos += 1;
                    }
                }
                self.pos = c + 1;
            } else {
                self.pos = save;
            }
            let mut items = Vec::new();
            loop {
                match self.list_item() {
                    Some(it) => items.push(it),
                    None => return None,
                }
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b')') => break,
                    _ => return None,
                }
            }
            ClauseArgs::List { modifiers, items }
        } else if expr_clauses.contains(&lname.as_str()) {
            // optional `modifier:` (if(target: c))
            let save = self.pos;
            let mut modifier = None;
            if let Some(w) = self.word() {
                if self.peek() == Some(b':') && self.src.as_bytes().get(self.pos + 1) != Some(&b':') {
                    self.pos += 1;
                    modifier = Some(w);
                } else {
                    self.pos = save;
                }
            }
            let e = self.expr(b")")?;
            ClauseArgs::Expr { modifier, expr: e }
        } else if matches!(lname.as_str(), "default" | "proc_bind" | "bind" | "order" | "atomic_default_mem_order") {
            ClauseArgs::Keyword(self.word()?)
        } else {
            let mut args = Vec::new();
            loop {
                let s = self.pos;
                let save = self.pos;
                let mut name = None;
                if let Some(w) = self.word() {
                    if self.peek() == Some(b':') && self.src.as_bytes().get(self.pos + 1) != Some(&b':') {
                        self.pos += 1;
                        name = Some(w);
                    } else {
                        self.pos = save;
                    }
                }
                let value = self.expr(b",)").unwrap_or(ExprText { text: String::new(), span: Span::new(self.pos, self.pos) });
                args.push(Arg { name, value, span: Span::new(s, self.pos) });
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    _ => break,
                }
            }
            ClauseArgs::Args(args)
        };
        if self.peek() != Some(b')') {
            return None;
        }
        self.pos += 1;
        let _ = open;
        Some(Clause { name: lname, name_span: name.span, args, span: Span::new(name.span.start, self.pos) })
    }

    /// Skips to the next clause boundary after an error.
    fn recover(&mut self) {
        let b = self.src.as_bytes();
        let mut depth = 0;
        while self.pos < self.end {
            match b[self.pos] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth <= 0 {
                        self.pos += 1;
                        return;
                    }
                }
                b' ' | b',' if depth == 0 => return,
                _ => {}
            }
            self.pos += 1;
        }
    }
}

const OMP_CLAUSES: &[&str] = &["map", "private", "firstprivate", "lastprivate", "shared", "reduction", "num_teams", "thread_limit", "num_threads", "collapse", "if", "nowait", "device", "defaultmap", "default", "is_device_ptr", "has_device_addr", "depend", "schedule", "dist_schedule", "simdlen", "safelen", "linear", "aligned", "proc_bind", "ordered", "allocate", "in_reduction", "uses_allocators", "order", "bind", "to", "from", "link", "enter", "use_device_ptr", "use_device_addr", "nontemporal", "copyin", "copyprivate", "final", "untied", "mergeable", "priority", "grainsize", "num_tasks", "nogroup", "task_reduction", "device_type", "indirect", "filter", "hint", "seq_cst", "acq_rel", "acquire", "release", "relaxed", "read", "write", "update", "capture", "compare", "threads", "simd", "doacross", "unified_address", "unified_shared_memory", "reverse_offload", "dynamic_allocators", "atomic_default_mem_order", "inclusive", "exclusive", "detach", "affinity", "when", "otherwise", "default", "match", "novariants", "nocontext", "uniform", "inbranch", "notinbranch", "sizes", "full", "partial", "at", "severity", "message", "holds", "absent", "contains", "no_openmp", "no_openmp_routines", "no_parallelism", "initializer", "mapper", "destroy", "init", "use", "depobj", "align", "allocator", "nowait"];
const ACC_CLAUSES: &[&str] = &["copy", "copyin", "copyout", "create", "present", "no_create", "delete", "attach", "detach", "deviceptr", "private", "firstprivate", "reduction", "num_gangs", "num_workers", "vector_length", "gang", "worker", "vector", "seq", "auto", "independent", "collapse", "tile", "device_type", "dtype", "async", "wait", "if", "self", "default", "pcopy", "pcopyin", "pcopyout", "pcreate", "present_or_copy", "present_or_copyin", "present_or_copyout", "present_or_create", "finalize", "if_present", "host", "device", "use_device", "device_resident", "link", "bind", "nohost", "read", "write", "update", "capture", "device_num", "default_async", "cache"];

/// Levenshtein distance, for "did you mean" suggestions.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest candidate within a small edit distance.
pub fn suggest<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    candidates
        .iter()
        .map(|c| (distance(word, c), *c))
        .filter(|(d, c)| *d <= (c.len() / 3).max(1).min(3))
        .min()
        .map(|(_, c)| c)
}

/// Checks clause names and map types; reports with suggestions.
fn check_clause(model: Model, c: &Clause, diags: &mut Vec<Diagnostic>) {
    let known = if model == Model::Omp { OMP_CLAUSES } else { ACC_CLAUSES };
    if !known.contains(&c.name.as_str()) {
        let mut d = Diagnostic::new(codes::UNKNOWN_CLAUSE, c.name_span, format!("unknown {} clause `{}`", model.as_str(), c.name)).with_label("unknown clause");
        if let Some(s) = suggest(&c.name, known) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        diags.push(d);
        return;
    }
    if c.name == "reduction" {
        const OPS: &[&str] = &["+", "*", "-", "&", "|", "^", "&&", "||", "max", "min"];
        if let Some(op) = c.modifiers().last() {
            let ident = op.text.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
            if !OPS.contains(&op.text.as_str()) && !ident {
                diags.push(
                    Diagnostic::new(codes::BAD_CLAUSE_ARG, op.span, format!("`{}` is not a reduction identifier", op.text))
                        .with_label("expected + * - & | ^ && || max min")
                        .with_help("use one of + * - & | ^ && || max min"),
                );
            }
        } else {
            diags.push(Diagnostic::new(codes::BAD_CLAUSE_ARG, c.span, "reduction needs an operator: `reduction(+: x)`").with_label("no reduction identifier"));
        }
    }
    if model == Model::Omp && c.name == "map" {
        const TYPES: &[&str] = &["to", "from", "tofrom", "alloc", "release", "delete"];
        const MODS: &[&str] = &["always", "close", "present", "ompx_hold"];
        let mods = c.modifiers();
        for (i, m) in mods.iter().enumerate() {
            let last = i + 1 == mods.len();
            let ok = if last { TYPES.contains(&m.text.as_str()) || MODS.contains(&m.text.as_str()) } else { MODS.contains(&m.text.as_str()) || m.text.starts_with("mapper") || m.text.starts_with("iterator") };
            if !ok {
                let mut d = Diagnostic::new(codes::BAD_CLAUSE_ARG, m.span, format!("`{}` is not a map type", m.text)).with_label("expected to, from, tofrom, alloc, release or delete");
                if let Some(s) = suggest(&m.text, TYPES) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                diags.push(d);
            }
        }
    }
}

/// Parses the pragma whose text is `src[span]` (from `#` to the end of its
/// last continuation line). Returns `None` when it is not `omp`/`acc`.
pub fn parse_pragma(src: &str, span: Span) -> (Option<Directive>, Vec<Diagnostic>) {
    let end = span.end.min(src.len());
    let start = span.start.min(end);
    if !src.is_char_boundary(start) || !src.is_char_boundary(end) {
        return (None, Vec::new());
    }
    let mut p = P { src, pos: start, end, diags: Vec::new() };
    p.skip_ws();
    if p.peek() == Some(b'#') {
        p.pos += 1;
    }
    match p.word() {
        Some(w) if w.text == "pragma" => {}
        _ => return (None, Vec::new()),
    }
    let model = match p.word() {
        Some(w) if w.text == "omp" => Model::Omp,
        Some(w) if w.text == "acc" => Model::Acc,
        _ => return (None, Vec::new()),
    };
    let words = if model == Model::Omp { OMP_WORDS } else { ACC_WORDS };
    let mut name_words: Vec<Word> = Vec::new();
    loop {
        let save = p.pos;
        match p.word() {
            Some(w) if words.contains(&w.text.as_str()) && !(name_words.is_empty() == false && p.peek() == Some(b'(') && w.text != "declare") => {
                name_words.push(w)
            }
            _ => {
                p.pos = save;
                break;
            }
        }
    }
    if name_words.is_empty() {
        let at = p.word().map(|w| w.span).unwrap_or(Span::new(p.pos, p.pos));
        p.diags.push(Diagnostic::new(codes::UNKNOWN_DIRECTIVE, at, format!("unknown {} directive", model.as_str())).with_label("not a directive name"));
        return (None, p.diags);
    }
    let name = name_words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
    let name_span = name_words[0].span.to(name_words[name_words.len() - 1].span);
    let mut clauses = Vec::new();
    loop {
        match p.peek() {
            None => break,
            Some(b',') => {
                p.pos += 1;
                continue;
            }
            _ => {}
        }
        let Some(w) = p.word() else {
            let s = p.pos;
            p.pos += 1;
            while p.pos < p.end && !src.is_char_boundary(p.pos) {
                p.pos += 1;
            }
            p.diags.push(Diagnostic::new(codes::PRAGMA_SYNTAX, Span::new(s, p.pos), "unexpected character in pragma").with_label("expected a clause name"));
            continue;
        };
        let cstart = w.span.start;
        match p.clause(w.clone()) {
            Some(c) => {
                check_clause(model, &c, &mut p.diags);
                clauses.push(c)
            }
            None => {
                p.recover();
                p.diags.push(
                    Diagnostic::new(codes::PRAGMA_SYNTAX, Span::new(cstart, p.pos.max(cstart + 1).min(p.end)), format!("malformed `{}` clause", w.text))
                        .with_label("cannot parse this clause"),
                );
            }
        }
    }
    let d = Directive { model, name, name_span, clauses, span: Span::new(start, end) };
    (Some(d), p.diags)
}
