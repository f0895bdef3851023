//! Golden tests: every stage's output for every fixture, compared with the
//! files under fixtures/out/. Rewrite them all with
//!
//!     P2C_BLESS=1 cargo test --test golden
//!
//! and review the change as a diff. A difference that is not blessed fails
//! and prints a unified diff of the blessed text against the new one.
//!
//! CUDA goldens hold the translated part only: each fixed prelude block the
//! emitter writes (`emit::templates::PRELUDE_BLOCKS`) stands as one marker
//! line, `/* @prelude NAME */`, and the blocks are kept once in
//! `fixtures/out/prelude.cuh` (checked against the library's by
//! `cuda_prelude`). A prelude change rewrites that one file. The full `.cu`
//! of a fixture is its golden with each marker line replaced by its block.
//!
//! Options: a fixture `fixtures/in/X.c` is translated with the default options
//! unless `fixtures/in/X.opts` exists; it holds command-line options, one per
//! line (`--reduction-strategy=lock`, `--shared-budget=N`; `#` starts a
//! comment), applied to every stage of that fixture.

mod fixture_opts;

use fixture_opts::{golden_options, options};
use pragma2cuda::diag::{render, Format};
use pragma2cuda::emit::templates::PRELUDE_BLOCKS;
use pragma2cuda::source::SourceFile;
use pragma2cuda::{translate, Emit, Options};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn inputs(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().map(|x| x == "c").unwrap_or(false))
        .collect();
    v.sort();
    v
}

fn load(p: &Path) -> SourceFile {
    let rel = p
        .strip_prefix(root())
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned();
    SourceFile::new(rel, fs::read_to_string(p).expect("read fixture"))
}

/// The marker line that stands for prelude block `name` in a CUDA golden.
fn marker(name: &str) -> String {
    format!("/* @prelude {name} */\n")
}

/// The CUDA output with each prelude block replaced by its marker line.
/// Only the text before the translated source is searched, blocks in the
/// emitter's order.
fn fold_prelude(out: &str) -> String {
    const START: &str = "/* ---- translated source ---- */\n";
    let split = out.find(START).unwrap_or(0);
    let (head, body) = out.split_at(split);
    let mut folded = String::new();
    let mut rest = head;
    for (name, text) in PRELUDE_BLOCKS {
        if let Some(at) = rest.find(text) {
            folded.push_str(&rest[..at]);
            folded.push_str(&marker(name));
            rest = &rest[at + text.len()..];
        }
    }
    folded.push_str(rest);
    folded.push_str(body);
    folded
}

/// The full CUDA output of a golden: each marker line replaced by its block.
fn unfold_prelude(golden: &str) -> String {
    let mut out = golden.to_string();
    for (name, text) in PRELUDE_BLOCKS {
        out = out.replacen(&marker(name), text, 1);
    }
    out
}

/// `fixtures/out/prelude.cuh`: every block after its marker line.
fn prelude_file() -> String {
    PRELUDE_BLOCKS
        .iter()
        .map(|(name, text)| format!("{}{text}", marker(name)))
        .collect()
}

/// A unified diff of `old` against `new` by lines, three lines of context.
/// The common head and tail are cut first; the middle is compared by a
/// longest-common-subsequence table (a golden's change is small).
fn unified_diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (am, bm) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    // ops: (' ' | '-' | '+', line), over the whole files.
    let mut ops: Vec<(char, &str)> = a[..head].iter().map(|l| (' ', *l)).collect();
    if am.len() * bm.len() > 25_000_000 {
        ops.extend(am.iter().map(|l| ('-', *l)));
        ops.extend(bm.iter().map(|l| ('+', *l)));
    } else {
        let w = bm.len() + 1;
        let mut lcs = vec![0u32; (am.len() + 1) * w];
        for i in (0..am.len()).rev() {
            for j in (0..bm.len()).rev() {
                lcs[i * w + j] = if am[i] == bm[j] {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < am.len() || j < bm.len() {
            if i < am.len() && j < bm.len() && am[i] == bm[j] {
                ops.push((' ', am[i]));
                (i, j) = (i + 1, j + 1);
            } else if i < am.len() && (j == bm.len() || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])
            {
                ops.push(('-', am[i]));
                i += 1;
            } else {
                ops.push(('+', bm[j]));
                j += 1;
            }
        }
    }
    ops.extend(a[a.len() - tail..].iter().map(|l| (' ', *l)));
    // Hunks: changed lines with three lines of context around them.
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].0 != ' ').collect();
    let mut out = String::new();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(3);
        let mut end = changed[k] + 1;
        while k < changed.len() && changed[k] <= end + 6 {
            end = changed[k] + 1;
            k += 1;
        }
        let end = (end + 3).min(ops.len());
        let before = |c: char| ops[..start].iter().filter(|o| o.0 != c).count();
        let count = |c: char| ops[start..end].iter().filter(|o| o.0 != c).count();
        out.push_str(&format!(
            "@@ -{},{} +{},{} @@\n",
            before('+') + 1,
            count('+'),
            before('-') + 1,
            count('-')
        ));
        for (c, l) in &ops[start..end] {
            out.push_str(&format!("{c}{l}\n"));
        }
    }
    if out.is_empty() && old != new {
        out.push_str("(the texts differ only in their final newline)\n");
    }
    out
}

/// Compares (or blesses) one expected file; returns a failure message.
fn check(expected: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("P2C_BLESS").is_some() {
        fs::create_dir_all(expected.parent().unwrap()).unwrap();
        fs::write(expected, actual).unwrap();
        return None;
    }
    match fs::read_to_string(expected) {
        Ok(e) if e == actual => None,
        Ok(e) => Some(format!(
            "{}: differs from the blessed output:\n--- {0} (blessed)\n+++ {0} (now)\n{}",
            expected.display(),
            unified_diff(&e, actual)
        )),
        Err(_) => Some(format!(
            "{}: missing; run P2C_BLESS=1 cargo test --test golden",
            expected.display()
        )),
    }
}

fn run_stage(dir: &str, emit: Emit, out_dir: &str, ext: &str) {
    let mut failures = Vec::new();
    for p in inputs(dir) {
        let file = load(&p);
        let opts = match golden_options(&p, emit) {
            Ok(o) => o,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let t = translate(&file, &opts);
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let text = match t.output {
            Some(o) if !t.has_errors() => o,
            _ => {
                failures.push(format!(
                    "{}: translation failed:\n{}",
                    p.display(),
                    render(&file, &t.diagnostics, Format::Gcc, false)
                ));
                continue;
            }
        };
        // Determinism: the same input gives the same bytes.
        let again = translate(&file, &opts).output.unwrap_or_default();
        if again != text {
            failures.push(format!("{}: two translations differ", p.display()));
        }
        let text = if emit == Emit::Cuda {
            let folded = fold_prelude(&text);
            if unfold_prelude(&folded) != text {
                failures.push(format!(
                    "{}: prelude markers do not round-trip",
                    p.display()
                ));
                continue;
            }
            folded
        } else {
            text
        };
        if let Some(f) = check(&root().join(out_dir).join(format!("{name}.{ext}")), &text) {
            failures.push(f);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The prelude blocks, kept once: a change of a template rewrites this file
/// only (the CUDA goldens name the blocks they hold).
#[test]
fn cuda_prelude() {
    if let Some(f) = check(&root().join("fixtures/out/prelude.cuh"), &prelude_file()) {
        panic!("{f}");
    }
}

/// The diff a golden mismatch prints.
#[test]
fn unified_diff_shows_the_change() {
    let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
    let new = "a\nb\nc\nD\ne\nf\ng\nh\ni\n";
    expect_test::expect![[r#"
        @@ -1,8 +1,9 @@
         a
         b
         c
        -d
        +D
         e
         f
         g
         h
        +i
    "#]]
    .assert_eq(&unified_diff(old, new));
    assert_eq!(unified_diff("x\n", "x\n"), "");
}

/// `X.opts` beside `X.c` gives the fixture's options; none gives the
/// defaults; an unknown option is a failure, not ignored.
#[test]
fn fixture_options_come_from_x_opts() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("x.c");
    fs::write(&c, "int main(void) { return 0; }\n").unwrap();
    let o = options(&c, Emit::Plan).unwrap();
    assert_eq!(o.shared_budget, Options::default().shared_budget);
    fs::write(
        c.with_extension("opts"),
        "# strategy and budget\n--reduction-strategy=lock\n--shared-budget=96\n",
    )
    .unwrap();
    let o = options(&c, Emit::Plan).unwrap();
    assert_eq!(o.emit, Emit::Plan);
    assert_eq!(o.shared_budget, 96);
    assert_eq!(
        Some(o.reduction_strategy),
        pragma2cuda::ir::reduction::Strategy::parse("lock")
    );
    // Goldens have no `#line` unless asked; the harness always has them.
    assert!(!golden_options(&c, Emit::Cuda).unwrap().line_directives);
    assert!(options(&c, Emit::Cuda).unwrap().line_directives);
    fs::write(c.with_extension("opts"), "--line-directives\n").unwrap();
    assert!(golden_options(&c, Emit::Cuda).unwrap().line_directives);
    fs::write(c.with_extension("opts"), "--emit=plan\n").unwrap();
    assert!(options(&c, Emit::Cuda)
        .unwrap_err()
        .contains("unknown option"));
}

#[test]
fn cuda_output() {
    run_stage("fixtures/in", Emit::Cuda, "fixtures/out/cuda", "cu");
}

#[test]
fn plan_output() {
    run_stage("fixtures/in", Emit::Plan, "fixtures/out/plan", "txt");
}

#[test]
fn reductions_output() {
    run_stage(
        "fixtures/in",
        Emit::Reductions,
        "fixtures/out/reductions",
        "txt",
    );
}

#[test]
fn sharing_output() {
    run_stage("fixtures/in", Emit::Sharing, "fixtures/out/sharing", "txt");
}

#[test]
fn sharing_json_output() {
    run_stage(
        "fixtures/in",
        Emit::SharingJson,
        "fixtures/out/sharing",
        "json",
    );
}

/// The JSON report is well formed and complete: every variable of every
/// scope has an attribute, a location kind among register/shared/global
/// (shared and global frame slots with an offset and a size inside the
/// frame), a rule and a position.
#[test]
fn sharing_json_is_complete() {
    let mut failures = Vec::new();
    for p in inputs("fixtures/in") {
        let file = load(&p);
        let t = translate(
            &file,
            &Options {
                emit: Emit::SharingJson,
                ..Default::default()
            },
        );
        let Some(out) = t.output else {
            failures.push(format!("{}: no output", p.display()));
            continue;
        };
        let v: serde_json::Value = match serde_json::from_str(&out) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{}: not JSON: {e}", p.display()));
                continue;
            }
        };
        for r in v["regions"].as_array().into_iter().flatten() {
            let shared = r["shared_frame_bytes"].as_u64().unwrap_or(0);
            let global = r["global_frame_bytes"].as_u64().unwrap_or(0);
            for s in r["scopes"].as_array().into_iter().flatten() {
                for var in s["variables"].as_array().into_iter().flatten() {
                    let name = var["name"].as_str().unwrap_or("?");
                    let ok_text = ["attribute", "rule", "rule_kind", "spec"]
                        .iter()
                        .all(|k| var[*k].as_str().is_some_and(|x| !x.is_empty()));
                    let loc = &var["location"];
                    let ok_loc = match (
                        loc["kind"].as_str(),
                        loc["offset"].as_u64(),
                        loc["bytes"].as_u64(),
                    ) {
                        (Some("register"), None, None) => true,
                        (Some("global"), None, None) => true,
                        (Some("shared"), Some(o), Some(b)) => o + b <= shared,
                        (Some("global"), Some(o), Some(b)) => o + b <= global,
                        _ => false,
                    };
                    if !ok_text || !ok_loc || var["at"]["line"].as_u64().is_none() {
                        failures.push(format!("{}: variable `{name}`: {var}", p.display()));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn directives_output() {
    run_stage(
        "fixtures/in",
        Emit::Directives,
        "fixtures/out/directives",
        "txt",
    );
}

/// Bad inputs: the rendered diagnostics are golden, every `// expect: CODE`
/// comment's code is reported on the line below it, the errors are exactly
/// the announced ones (as many of each code), no output is produced.
#[test]
fn diagnostics_output() {
    let mut failures = Vec::new();
    for p in inputs("fixtures/bad") {
        let file = load(&p);
        let t = translate(&file, &Options::default());
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if t.output.is_some() || !t.has_errors() {
            failures.push(format!("{}: expected errors, got none", p.display()));
        }
        let mut expected: Vec<&str> = Vec::new();
        for (i, line) in file.text.lines().enumerate() {
            if let Some(pos) = line.find("// expect: ") {
                let code = line[pos + 11..].split_whitespace().next().unwrap_or("");
                expected.push(code);
                let target = i + 2; // the line after the comment (1-based)
                let hit = t.diagnostics.iter().any(|d| {
                    d.code.as_str() == code && {
                        let l = file.line_of(d.primary_span().start);
                        l >= target && l <= target + 8
                    }
                });
                if !hit {
                    failures.push(format!(
                        "{}:{}: expected {code} near line {target}; got: {}",
                        p.display(),
                        i + 1,
                        t.diagnostics
                            .iter()
                            .map(|d| format!(
                                "{}@{}",
                                d.code.as_str(),
                                file.line_of(d.primary_span().start)
                            ))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
        let mut got: Vec<&str> = t
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code.as_str())
            .collect();
        got.sort();
        expected.sort();
        if got != expected {
            failures.push(format!(
                "{}: errors {got:?}, announced {expected:?}",
                p.display()
            ));
        }
        let rendered = render(&file, &t.diagnostics, Format::Human, false);
        if let Some(f) = check(
            &root()
                .join("fixtures/out/diagnostics")
                .join(format!("{name}.txt")),
            &rendered,
        ) {
            failures.push(f);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The directive catalogue (fixtures/directives: every directive and clause of
/// the grammar, see the unit test `every_grammar_name_is_in_the_catalogue`),
/// parsed and rendered as text and JSON. Only the directive front end runs:
/// these files are not programs, and the goldens show what the parser made of
/// each pragma, with no diagnostic.
#[test]
fn directive_catalogue() {
    use pragma2cuda::directives::{parse_pragma, render_json, render_text};
    use pragma2cuda::source::mask::find_pragmas;
    let mut failures = Vec::new();
    for p in inputs("fixtures/directives") {
        let file = load(&p);
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let mut dirs = Vec::new();
        for raw in find_pragmas(&file.text) {
            let (d, diags) = parse_pragma(&file.text, raw.span);
            if !diags.is_empty() {
                failures.push(format!(
                    "{}: {}",
                    p.display(),
                    render(&file, &diags, Format::Gcc, false)
                ));
            }
            match d {
                Some(d) => dirs.push(d),
                None => failures.push(format!(
                    "{}:{}: not a directive",
                    p.display(),
                    file.line_of(raw.span.start)
                )),
            }
        }
        let out = root().join("fixtures/out/directives");
        for (ext, text) in [
            ("txt", render_text(&file, &dirs)),
            ("json", render_json(&file, &dirs)),
        ] {
            if let Some(f) = check(&out.join(format!("{name}.{ext}")), &text) {
                failures.push(f);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
