//! Offload pragmas left in a translation. An OpenMP `target` / `teams` /
//! `distribute` or an OpenACC directive that survives in the `.cu` is run on
//! the host by the `-fopenmp` / `-fopenacc` emulator and GPU builds, so the
//! run would agree with the reference without the region ever being
//! translated: `verify` reports such lines instead of a pass.
//!
//! A host `teams` construct (outside every `target` region) and the
//! `distribute` in it are host OpenMP: the translation keeps them with the
//! comment `lower::host_teams::HOST_TEAMS_MARK` at the end of the pragma,
//! and a `teams` / `distribute` pragma (no `target`) with that comment is
//! not a leftover.
//!
//! The scan is comment-aware (comments anywhere in the line, the pragma
//! prefix included, are blanks; strings are kept) and knows line splices,
//! `#pragma` and `_Pragma("...")`.

use crate::lower::host_teams::HOST_TEAMS_MARK;

/// One leftover pragma: its 1-based line and its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leftover {
    pub line: usize,
    pub text: String,
}

/// Every offload pragma in `text`.
pub fn offload_pragmas(text: &str) -> Vec<Leftover> {
    let clean = blank_comments(text);
    let raw: Vec<&str> = text.split('\n').collect();
    let mut out = Vec::new();
    let mut in_macros: Vec<(String, Leftover)> = Vec::new();
    let mut logical = String::new();
    let mut start_line = 1;
    for (line_no, line) in (1..).zip(clean.split('\n')) {
        if logical.is_empty() {
            start_line = line_no;
        }
        if let Some(body) = line.strip_suffix('\\') {
            logical.push_str(body);
            logical.push(' ');
            continue;
        }
        logical.push_str(line);
        let defined = defined_name(&logical);
        let marked = raw
            .get(start_line - 1..line_no)
            .is_some_and(|ls| ls.iter().any(|l| l.contains(HOST_TEAMS_MARK)));
        for p in pragma_bodies(&logical) {
            if is_offload(&p) && !(marked && is_host_teams(&p)) {
                let found = Leftover {
                    line: start_line,
                    text: p.split_whitespace().collect::<Vec<_>>().join(" "),
                };
                match &defined {
                    Some(name) => in_macros.push((name.clone(), found)),
                    None => out.push(found),
                }
            }
        }
        logical.clear();
    }
    // A `#define` whose body holds an offload `_Pragma` is a pragma only
    // where the macro is used: it is left over when its name still stands
    // in the code (the translation replaces the uses it lowers).
    for (name, found) in in_macros {
        if used_outside_defines(&clean, &name) {
            out.push(found);
        }
    }
    out.sort_by_key(|l| l.line);
    out
}

/// `omp teams ...` or `omp distribute ...` without a `target` word: what
/// the translation passes through as host teams (`lower::host_teams`).
fn is_host_teams(body: &str) -> bool {
    let mut words = body
        .split(|c: char| c.is_whitespace() || c == '(' || c == ',')
        .filter(|w| !w.is_empty());
    words.next() == Some("omp")
        && matches!(words.next(), Some("teams" | "distribute"))
        && !body
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == "target")
}

/// The macro a `#define` line defines.
fn defined_name(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("define")?;
    if !rest.starts_with(|c: char| c.is_whitespace()) {
        return None;
    }
    let name: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Whether `name` stands as a word on a line of `clean` that is not a
/// preprocessor directive.
fn used_outside_defines(clean: &str, name: &str) -> bool {
    clean
        .split('\n')
        .filter(|l| !l.trim_start().starts_with('#'))
        .any(|l| {
            l.match_indices(name).any(|(i, _)| {
                let before = l[..i].chars().next_back();
                let after = l[i + name.len()..].chars().next();
                let word =
                    |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
                !word(before) && !word(after)
            })
        })
}

/// The text after `#pragma` of a logical line, and the contents of each
/// `_Pragma("...")` in it.
fn pragma_bodies(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let t = line.trim_start();
    if let Some(rest) = t.strip_prefix('#') {
        let rest = rest.trim_start();
        if let Some(body) = rest.strip_prefix("pragma") {
            if body.starts_with(|c: char| c.is_whitespace()) {
                out.push(body.to_string());
            }
        }
    }
    let mut rest = line;
    while let Some(i) = rest.find("_Pragma") {
        rest = &rest[i + 7..];
        let r = rest.trim_start();
        let Some(r) = r.strip_prefix('(') else {
            continue;
        };
        let Some(r) = r.trim_start().strip_prefix('"') else {
            continue;
        };
        let mut body = String::new();
        let mut chars = r.chars();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => body.extend(chars.next()),
                c => body.push(c),
            }
        }
        out.push(body);
    }
    out
}

/// `omp` with a `target`, `teams` or `distribute` directive word, or any `acc` directive.
fn is_offload(body: &str) -> bool {
    let mut words = body
        .split(|c: char| c.is_whitespace() || c == '(' || c == ',')
        .filter(|w| !w.is_empty());
    match words.next() {
        Some("acc") => true,
        Some("omp") => {
            let names: Vec<&str> = words
                .take_while(|w| w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
                .collect();
            // `assume` / `assumes` (and `begin` / `end assumes`) list
            // directive names in `contains` / `absent`: a promise about the
            // code, no region of its own.
            let assume = names
                .iter()
                .find(|w| !matches!(**w, "begin" | "end"))
                .is_some_and(|w| matches!(*w, "assume" | "assumes"));
            // A metadirective's variants are in its clauses.
            let meta = names.contains(&"metadirective");
            let offload = |w: &str| matches!(w, "target" | "teams" | "distribute");
            if meta {
                return body
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(offload);
            }
            !assume && names.iter().any(|w| offload(w))
        }
        _ => false,
    }
}

/// `text` with every comment replaced by spaces (newlines kept); string and
/// character literals are kept as they are.
fn blank_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                out.extend_from_slice(b"  ");
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
                i = (i + 2).min(b.len());
                out.extend_from_slice(b"  ");
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                // A `//` comment ends at a newline not preceded by a splice.
                while i < b.len() && !(b[i] == b'\n' && (i == 0 || b[i - 1] != b'\\')) {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                out.push(q);
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    if b[i] == b'\\' && i + 1 < b.len() {
                        out.push(b[i]);
                        i += 1;
                    }
                    out.push(b[i]);
                    i += 1;
                }
                if i < b.len() && b[i] == q {
                    out.push(q);
                    i += 1;
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<usize> {
        offload_pragmas(text).iter().map(|l| l.line).collect()
    }

    #[test]
    fn offload_pragmas_are_found_in_every_spelling() {
        let text = "\
#pragma omp parallel for\n\
#pragma omp target teams distribute parallel for map(to: a)\n\
  #  pragma /* c */ omp teams\n\
/* c */ #pragma acc parallel loop\n\
#pragma /**/acc data copy(a)\n\
_Pragma(\"omp target\") int x;\n\
#pragma omp \\\n  distribute\n\
#pragma omp declare target\n\
#pragma omp parallel num_threads(4)\n\
#pragma once\n";
        assert_eq!(lines(text), vec![2, 3, 4, 5, 6, 7, 9]);
        let l = &offload_pragmas("#pragma omp target /* x */ map(to: a)\n")[0];
        assert_eq!(l.text, "omp target map(to: a)");
    }

    #[test]
    fn comments_and_strings_are_not_pragmas() {
        let text = "\
// #pragma omp target\n\
/* #pragma acc parallel\n\
   #pragma acc loop */\n\
const char *s = \"#pragma omp target\";\n\
// a comment that continues \\\n#pragma omp target\n\
#pragma omp parallel for /* target */\n";
        assert_eq!(lines(text), Vec::<usize>::new());
    }

    /// The assumption directives name directives in their clauses only; a
    /// metadirective's variants are in its clauses.
    #[test]
    fn assumptions_are_not_regions() {
        let text = "\
#pragma omp assume contains(target, parallel, for)\n\
#pragma omp assumes absent(teams, masked)\n\
#pragma omp begin assumes contains(target)\n\
#pragma omp end assumes\n\
#pragma omp target\n\
#pragma omp metadirective when(device={kind(host)}: nothing) otherwise(target)\n\
#pragma omp metadirective when(device={kind(host)}: parallel)\n";
        assert_eq!(lines(text), vec![5, 6]);
    }

    /// Host teams pragmas carry the translation's comment; without it, or
    /// with a `target` leaf, they are leftovers.
    #[test]
    fn marked_host_teams_are_host_code() {
        let m = HOST_TEAMS_MARK;
        let text = format!(
            "#pragma omp teams num_teams(2) {m}\n\
#pragma omp distribute {m}\n\
#pragma omp teams\n\
#pragma omp target teams {m}\n\
#pragma omp parallel for {m}\n\
#pragma omp teams \\\n  distribute {m}\n"
        );
        assert_eq!(lines(&text), vec![3, 4]);
    }

    /// A macro whose body is an offload `_Pragma` counts where it is used.
    #[test]
    fn pragma_macros_count_where_they_are_used() {
        let defined = "#define PAR _Pragma(\"omp target teams distribute\")\nint main() {\n  /* PAR */\n  return 0;\n}\n";
        assert_eq!(lines(defined), Vec::<usize>::new());
        let used = "#define PAR _Pragma(\"omp target teams distribute\")\nint main() {\n  PAR\n  for (;;) {}\n}\n";
        assert_eq!(lines(used), vec![1]);
        let similar = "#define PAR _Pragma(\"acc parallel\")\nint PARTS = 1;\n";
        assert_eq!(lines(similar), Vec::<usize>::new());
    }
}
