//! Nothing silently dropped: every `omp`/`acc` pragma of every fixture
//! (fixtures/in, fixtures/bad, fixtures/link) is lowered (a host block in the
//! output names it as a kernel), passed through unchanged (it stands at the
//! start of an output line, as written), or has a diagnostic located on it
//! (on the pragma or inside the statement it governs).
//!
//! A file with errors produces no output, so the check goes in rounds: the
//! pragmas that own the errors of a round are counted as diagnosed and
//! blanked out (spaces, offsets kept), and the file is translated again until
//! it translates; then the remaining pragmas must be lowered or passed
//! through. The pragmas are found by a scan of the text written here, not by
//! the translator's own scanner.

use pragma2cuda::diag::Diagnostic;
use pragma2cuda::source::{mask, SourceFile, Span};
use pragma2cuda::{translate, Emit, Options};
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Lowered,
    PassedThrough,
    Diagnosed,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `#pragma omp|acc ...` lines (with backslash continuations), as byte spans.
fn scan_pragmas(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut pos = 0;
    let mut continued_until = 0;
    for line in text.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        if start < continued_until {
            continue;
        }
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("pragma") else {
            continue;
        };
        let rest = rest.trim_start();
        let model_word = rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        if model_word != "omp" && model_word != "acc" {
            continue;
        }
        // Extend over continuation lines.
        let mut end = pos;
        let mut last = line;
        let mut rest_text = &text[pos..];
        while last.trim_end_matches(['\n', '\r']).ends_with('\\') {
            let Some(next) = rest_text.split_inclusive('\n').next() else {
                break;
            };
            end += next.len();
            rest_text = &rest_text[next.len()..];
            last = next;
        }
        continued_until = end;
        let body_start = start + (line.len() - t.len());
        let trimmed_end = start + text[start..end].trim_end().len();
        out.push(Span::new(body_start, trimmed_end));
    }
    out
}

/// The pragma on one line, as the host block of a lowered region quotes it.
fn one_line(text: &str) -> String {
    let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
    joined
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("*/", "* /")
        .replace("/*", "/ *")
}

/// `text` with every C++ keyword used as a name (a word not followed by
/// `(`, so clause names stay) spelled as pragma2cuda renames it: `class_`.
fn keywords_renamed(text: &str) -> String {
    const CXX: &[&str] = &[
        "class",
        "this",
        "new",
        "delete",
        "template",
        "typename",
        "namespace",
        "operator",
        "private",
        "public",
        "protected",
        "virtual",
        "friend",
        "explicit",
        "mutable",
        "catch",
        "try",
        "throw",
        "using",
        "export",
        "nullptr",
        "typeid",
        "and",
        "or",
        "not",
        "xor",
    ];
    let mut out = String::with_capacity(text.len() + 8);
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            out.push_str(word);
            if CXX.contains(&word) && b.get(i) != Some(&b'(') {
                out.push('_');
            }
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The statement each pragma governs ends here (or the pragma itself ends).
fn region_ends(file: &SourceFile, pragmas: &[Span]) -> Vec<usize> {
    let raw = mask::find_pragmas(&file.text);
    let tree = pragma2cuda::front::parse_c(mask::mask(&file.text, &raw));
    let dirs: Vec<_> = raw
        .iter()
        .filter_map(|p| pragma2cuda::directives::parse_pragma(&file.text, p.span).0)
        .collect();
    let attached = pragma2cuda::front::attach(&tree, dirs);
    pragmas
        .iter()
        .map(|p| {
            attached
                .iter()
                .find(|a| a.directive.span.start == p.start)
                .and_then(|a| a.stmt)
                .map(|s| s.end.max(p.end))
                .unwrap_or(p.end)
        })
        .collect()
}

/// Pragmas spelled through macros of the file (`#define P _Pragma("...")`)
/// are not `#pragma` lines; their errors are located in the `#define`, at
/// the macro's use (E0105: a macro the file cannot see), or in the statement
/// right after a use. Those count as diagnosed on the macro pragma.
fn macro_owned(text: &str, at: usize, code: &str) -> bool {
    if code == "E0105" {
        return true;
    }
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("#define"))
        .filter(|rest| rest.contains("_Pragma"))
        .filter_map(|rest| {
            rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .find(|w| !w.is_empty())
        })
        .collect();
    let line_no = text[..at.min(text.len())].matches('\n').count();
    let lines: Vec<&str> = text.lines().collect();
    let Some(here) = lines.get(line_no) else {
        return false;
    };
    if here.trim_start().starts_with("#define") && here.contains("_Pragma") {
        return true;
    }
    // The use of a pragma macro within the three lines before the error.
    (line_no.saturating_sub(3)..=line_no).any(|k| {
        lines.get(k).is_some_and(|l| {
            let first = l
                .trim_start()
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("");
            names.contains(&first)
        })
    })
}

/// Whether a pragma may be left to the host compiler: OpenMP without a
/// device construct (OpenACC and `target`/`teams`/`distribute` need a device).
fn host_only(pragma: &str) -> bool {
    let words: Vec<&str> = pragma
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .take_while(|w| !matches!(*w, "map" | "if" | "private" | "shared" | "reduction"))
        .collect();
    words.get(1) == Some(&"omp")
        && !words
            .iter()
            .any(|w| matches!(*w, "target" | "teams" | "distribute"))
}

/// Whether every occurrence of `needle` at the start of a line lies in the
/// `else` branch a generic-mode region's `if` clause runs on the host.
fn only_in_host_fallback(hay: &str, needle: &str) -> bool {
    const MARK: &str = "else { /* if clause false: the block runs on the host */";
    hay.match_indices(needle).all(|(i, _)| {
        let line_start = hay[..i].rfind('\n').map(|k| k + 1).unwrap_or(0);
        if !hay[line_start..i].chars().all(|c| c == ' ' || c == '\t') {
            return true;
        }
        let Some(m) = hay[..i].rfind(MARK) else {
            return false;
        };
        // Still inside the branch: its `{` is not closed before `needle`.
        let mut depth = 0i64;
        for c in hay[m + 5..i].chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                return false;
            }
        }
        true
    })
}

/// Whether `needle` occurs in `hay` with only blanks before it on its line.
fn at_line_start(hay: &str, needle: &str) -> bool {
    hay.match_indices(needle).any(|(i, _)| {
        let line_start = hay[..i].rfind('\n').map(|k| k + 1).unwrap_or(0);
        hay[line_start..i].chars().all(|c| c == ' ' || c == '\t')
    })
}

/// The fate of every pragma of `text`, or a list of problems.
fn fates(name: &str, text: &str) -> Result<Vec<(Span, Fate)>, Vec<String>> {
    let original = SourceFile::new(name, text);
    let pragmas = scan_pragmas(text);
    let mut fate: Vec<Option<Fate>> = vec![None; pragmas.len()];
    let mut problems = Vec::new();
    let mut current = text.to_string();
    for _round in 0..=pragmas.len() {
        let file = SourceFile::new(name, current.clone());
        let t = translate(
            &file,
            &Options {
                emit: Emit::Cuda,
                ..Default::default()
            },
        );
        let errors: Vec<&Diagnostic> = t.diagnostics.iter().filter(|d| d.is_error()).collect();
        if errors.is_empty() {
            let Some(out) = t.output else {
                problems.push(format!("{name}: no output and no error"));
                break;
            };
            for (k, p) in pragmas.iter().enumerate() {
                if fate[k].is_some() {
                    continue;
                }
                let written = &text[p.start..p.end];
                // A region names its pragma in the kernel's comment; a data
                // construct or declaration in the code that replaces it; a
                // directive nested in a generic-mode region in the comment of
                // the code it became.
                // (Merged constructs, `target` + `teams distribute parallel
                // for`, name every pragma they came from.) The text of a
                // pragma appears in the output only in such comments, or at
                // the start of a line when it is passed through.
                let one = one_line(written);
                // A region that uses C++ keywords as names is quoted with
                // the names its kernel uses (`class` -> `class_`).
                let renamed = keywords_renamed(&one);
                let lowered = out.lines().any(|l| {
                    (l.contains(&one) && !l.trim_start().starts_with(&one))
                        || (renamed != one && l.contains(&renamed))
                });
                let passed = at_line_start(&out, written);
                fate[k] = match (lowered, passed) {
                    (true, false) => Some(Fate::Lowered),
                    // A host `teams` construct (no target region) is host
                    // OpenMP; the translation marks it (`lower::host_teams`).
                    (false, true)
                        if !host_only(written)
                            && !out.contains(&format!(
                                "{} {}",
                                written.trim_end(),
                                pragma2cuda::lower::host_teams::HOST_TEAMS_MARK
                            )) =>
                    {
                        problems.push(format!(
                            "{name}:{}: `{}` needs the device but was passed through as host code",
                            original.line_of(p.start),
                            one_line(written)
                        ));
                        Some(Fate::PassedThrough)
                    }
                    (false, true) => Some(Fate::PassedThrough),
                    // Lowered for the device and kept, as host OpenMP, in
                    // the host copy a false `if` clause runs.
                    (true, true) if only_in_host_fallback(&out, written) => Some(Fate::Lowered),
                    (true, true) => {
                        problems.push(format!(
                            "{name}:{}: `{}` is both lowered and left in the output",
                            original.line_of(p.start),
                            one_line(written)
                        ));
                        Some(Fate::Lowered)
                    }
                    (false, false) => None,
                };
            }
            break;
        }
        // Each error belongs to the innermost live pragma whose text or
        // statement contains it.
        let ends = region_ends(&file, &pragmas);
        let live: Vec<bool> = fate.iter().map(Option::is_none).collect();
        let mut owned = false;
        for d in &errors {
            let at = d.primary_span().start;
            let owner = (0..pragmas.len())
                .filter(|&k| {
                    live[k] && pragmas[k].start <= at && at < ends[k].max(pragmas[k].end + 1)
                })
                .max_by_key(|&k| pragmas[k].start);
            match owner {
                Some(k) => {
                    fate[k] = Some(Fate::Diagnosed);
                    owned = true;
                }
                None if macro_owned(&file.text, at, d.code.as_str()) => {}
                // E05xx are about the C code itself (C that is not C++), not a pragma.
                None if d.code.as_str().starts_with("E05") => {}
                None => problems.push(format!(
                    "{name}:{}: error {} is located on no pragma: {}",
                    file.line_of(at),
                    d.code.as_str(),
                    d.message
                )),
            }
        }
        if !owned {
            break;
        }
        // Blank the diagnosed pragmas out and try again.
        let mut bytes = current.into_bytes();
        for (k, p) in pragmas.iter().enumerate() {
            if fate[k] == Some(Fate::Diagnosed) {
                for b in &mut bytes[p.start..p.end] {
                    if *b != b'\n' && *b != b'\r' {
                        *b = b' ';
                    }
                }
            }
        }
        current = String::from_utf8(bytes).expect("blanking keeps UTF-8");
    }
    for (k, p) in pragmas.iter().enumerate() {
        if fate[k].is_none() {
            problems.push(format!(
                "{name}:{}: `{}` was neither lowered, passed through nor diagnosed",
                original.line_of(p.start),
                one_line(&text[p.start..p.end])
            ));
        }
    }
    if problems.is_empty() {
        Ok(pragmas
            .into_iter()
            .zip(fate)
            .map(|(p, f)| (p, f.unwrap_or(Fate::Diagnosed)))
            .collect())
    } else {
        Err(problems)
    }
}

fn files(dir: &str, exts: &[&str]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.contains(&x))
        })
        .collect();
    v.sort();
    v
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root())
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_fixture_pragma_is_lowered_passed_through_or_diagnosed() {
    let mut problems = Vec::new();
    let mut counts = [0usize; 3];
    let mut all = files("fixtures/in", &["c"]);
    all.extend(files("fixtures/bad", &["c"]));
    all.extend(files("fixtures/link", &["c", "h"]));
    assert!(all.len() > 50, "fixtures not found");
    for p in &all {
        let text = fs::read_to_string(p).expect("read fixture");
        match fates(&rel(p), &text) {
            Ok(v) => {
                for (_, f) in &v {
                    counts[*f as usize] += 1;
                }
                // A runnable fixture must not lose any pragma to a diagnostic.
                if !rel(p).starts_with("fixtures/bad") {
                    for (s, f) in v {
                        if f == Fate::Diagnosed {
                            problems.push(format!(
                                "{}: pragma at byte {} diagnosed",
                                rel(p),
                                s.start
                            ));
                        }
                    }
                }
            }
            Err(e) => problems.extend(e),
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
    // Every fate occurs in the fixtures (the bad ones pass host pragmas
    // through once their errors are blanked), so none of the branches is dead.
    assert!(counts.iter().all(|&c| c > 0), "fates seen: {counts:?}");
}

/// The checker itself: host pragmas pass through, offload pragmas lower,
/// rejected ones are diagnosed, and a pragma the output lost is caught.
#[test]
fn the_checker_tells_the_three_fates_apart() {
    let src = "int a[8];\n\
        void f(void) {\n\
        #pragma omp parallel for\n\
        for (int i = 0; i < 8; i++) a[i] = i;\n\
        #pragma omp target teams distribute parallel for map(tofrom: a)\n\
        for (int i = 0; i < 8; i++) a[i] += 1;\n\
        #pragma omp target update\n\
        #pragma acc parallel loop \\\n    copy(a)\n\
        for (int i = 0; i < 8; i++) a[i] += 1;\n\
        }\n";
    let got: Vec<Fate> = fates("t.c", src)
        .unwrap_or_else(|e| panic!("{e:?}"))
        .into_iter()
        .map(|(_, f)| f)
        .collect();
    assert_eq!(
        got,
        [
            Fate::PassedThrough,
            Fate::Lowered,
            Fate::Diagnosed,
            Fate::Lowered
        ]
    );
    assert_eq!(scan_pragmas(src).len(), 4);
    assert!(host_only("#pragma omp parallel for if(n > 1)"));
    assert!(!host_only("#pragma acc parallel loop"));
    assert!(!host_only("#pragma omp target data map(to: a)"));
    // A pragma that is not in the output is reported, not accepted.
    assert!(!at_line_start(
        "x\n/* `#pragma omp parallel for` */\n",
        "#pragma omp parallel for"
    ));
    assert!(at_line_start(
        "x\n  #pragma omp parallel for\n",
        "#pragma omp parallel for"
    ));
}
