//! Golden tests: every stage's output for every fixture, compared with the
//! files under fixtures/out/. Rewrite them all with
//!
//!     P2C_BLESS=1 cargo test --test golden
//!
//! and review the change as a diff. A difference that is not blessed fails.

use pragma2cuda::diag::{render, Format};
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

/// Compares (or blesses) one expected file; returns a failure message.
fn check(expected: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("P2C_BLESS").is_some() {
        fs::create_dir_all(expected.parent().unwrap()).unwrap();
        fs::write(expected, actual).unwrap();
        return None;
    }
    match fs::read_to_string(expected) {
        Ok(e) if e == actual => None,
        Ok(e) => {
            let line = e
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .map(|i| i + 1)
                .unwrap_or(e.lines().count().min(actual.lines().count()) + 1);
            Some(format!(
                "{}: differs from the blessed output (first at line {line})",
                expected.display()
            ))
        }
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
        let t = translate(
            &file,
            &Options {
                emit,
                ..Default::default()
            },
        );
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
        let again = translate(
            &file,
            &Options {
                emit,
                ..Default::default()
            },
        )
        .output
        .unwrap_or_default();
        if again != text {
            failures.push(format!("{}: two translations differ", p.display()));
        }
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
