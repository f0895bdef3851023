//! `pragma2cuda suite DIR LIST`: runs third-party validation programs (OpenMP
//! VV, OpenACC V&V) through translation and the emulator (and GPU), judged by
//! the suites' own rule: the translated program exits with 0.

use super::suite_known::{annotate, parse_known};
use super::verify::{verify_file, BuildInputs, Judge, Outcome, Tool, Toolchain, VerifyOptions};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::files::io_message;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The paths of a list file: one per line, or the first column of a TSV. Blank
/// lines, lines starting with `#` and a header whose first column is `file` or
/// `path` are skipped.
pub fn parse_list(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('\t').next().unwrap_or("").trim())
        .filter(|p| !p.is_empty() && !p.starts_with('#') && *p != "file" && *p != "path")
        .map(str::to_string)
        .collect()
}

/// Include directories a suite file needs besides its own directory: every
/// `ompvv/` next to one of its ancestors up to `dir`, and `dir/openaccvv/Tests`.
pub fn suite_include_dirs(dir: &Path, file: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut cur = file.parent();
    while let Some(d) = cur {
        let c = d.join("ompvv");
        if c.join("ompvv.h").is_file() && !out.contains(&c) {
            out.push(c);
        }
        if d == dir || !d.starts_with(dir) {
            break;
        }
        cur = d.parent();
    }
    let acc = dir.join("openaccvv").join("Tests");
    if acc.join("acc_testsuite.h").is_file() {
        out.push(acc);
    }
    out
}

/// One file's line: `PASS path`, `FAIL path: why`, `TRANSLATE-ERROR path: first diagnostic`.
#[derive(Clone, Debug)]
pub struct SuiteResult {
    pub path: String,
    pub passed: bool,
    pub line: String,
}

/// Runs one listed file.
pub fn run_one(
    dir: &Path,
    rel: &str,
    base: &VerifyOptions,
    tc: &Toolchain,
    scratch: &Path,
    index: usize,
) -> SuiteResult {
    let file = dir.join(rel);
    let mut opts = base.clone();
    opts.run_env.extend(super::suite_env::suite_env(rel));
    opts.inputs
        .include_dirs
        .extend(suite_include_dirs(dir, &file));
    let work = scratch.join(format!("{index:04}"));
    let r = match std::fs::create_dir_all(&work) {
        Ok(()) => verify_file(&file, &opts, tc, &work),
        Err(e) => {
            return SuiteResult {
                path: rel.into(),
                passed: false,
                line: format!(
                    "FAIL {rel}: cannot create {}: {}",
                    work.display(),
                    io_message(&e)
                ),
            }
        }
    };
    let _ = std::fs::remove_dir_all(&work);
    let line = match r.outcome {
        Outcome::Pass => format!("PASS {rel}"),
        Outcome::TranslateError => format!("TRANSLATE-ERROR {rel}: {}", r.summary),
        Outcome::ReferenceFailed => format!("REFERENCE-FAILED {rel}: {}", r.summary),
        Outcome::Fail | Outcome::Setup => format!("FAIL {rel}: {}", r.summary),
    };
    SuiteResult {
        path: rel.into(),
        passed: r.outcome == Outcome::Pass,
        line,
    }
}

/// Runs every path on `jobs` threads; calls `report` for each result in list
/// order as soon as it and all before it are done.
pub fn run_all(
    dir: &Path,
    paths: &[String],
    jobs: usize,
    opts: &VerifyOptions,
    tc: &Toolchain,
    scratch: &Path,
    report: &(dyn Fn(&SuiteResult) + Sync),
) -> Vec<SuiteResult> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<(Vec<Option<SuiteResult>>, usize)> = Mutex::new((vec![None; paths.len()], 0));
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, paths.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(rel) = paths.get(i) else { break };
                let r = run_one(dir, rel, opts, tc, scratch, i);
                let mut g = slots.lock().unwrap_or_else(|e| e.into_inner());
                g.0[i] = Some(r);
                // Print the finished prefix, in order.
                while g.1 < paths.len() {
                    let k = g.1;
                    match &g.0[k] {
                        Some(done) => report(done),
                        None => break,
                    }
                    g.1 += 1;
                }
            });
        }
    });
    let (results, _) = slots.into_inner().unwrap_or_else(|e| e.into_inner());
    results.into_iter().flatten().collect()
}

/// What `pragma2cuda suite` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteArgs {
    pub dir: PathBuf,
    pub list: PathBuf,
    pub jobs: usize,
    pub device: super::verify::Device,
    pub timeout_secs: u64,
    /// `--known FILE`: the known failures that are not the translation's
    /// (see [`super::suite_known`]).
    pub known: Option<PathBuf>,
    pub extra: Vec<String>,
}

/// `pragma2cuda suite`.
pub fn main(a: &SuiteArgs) -> i32 {
    let text = match std::fs::read_to_string(&a.list) {
        Ok(t) => t,
        Err(e) => {
            eprintln!(
                "error[E0001]: cannot read input `{}`: {}",
                a.list.display(),
                io_message(&e)
            );
            return EXIT_USAGE;
        }
    };
    if !a.dir.is_dir() {
        eprintln!(
            "error[E0001]: cannot read input `{}`: not a directory",
            a.dir.display()
        );
        return EXIT_USAGE;
    }
    let known = match &a.known {
        None => HashMap::new(),
        Some(path) => match std::fs::read_to_string(path) {
            Err(e) => {
                eprintln!(
                    "error[E0001]: cannot read input `{}`: {}",
                    path.display(),
                    io_message(&e)
                );
                return EXIT_USAGE;
            }
            Ok(t) => match parse_known(&t) {
                Ok(k) => k,
                Err(e) => {
                    eprintln!("error: {}: {e}", path.display());
                    return EXIT_USAGE;
                }
            },
        },
    };
    let dir = a.dir.canonicalize().unwrap_or_else(|_| a.dir.clone());
    let paths = parse_list(&text);
    let tc = Toolchain::from_env();
    let missing = tc.missing(&[Tool::Gcc, Tool::Gxx, Tool::Emulator]);
    if !missing.is_empty() {
        eprintln!("error: {}", missing.join("; "));
        return EXIT_USAGE;
    }
    let mut inputs = BuildInputs::from_extra(&a.extra);
    inputs.concurrent_blocks = match super::verify::emu_blocks_from_env() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let opts = VerifyOptions {
        device: a.device,
        timeout: Duration::from_secs(a.timeout_secs),
        inputs,
        judge: Judge::ExitZero,
        // The suites spell pragmas through macros of their headers
        // (`OMPVV_TEST_OFFLOADING`) and keep C++ code under `#ifdef
        // __cplusplus`: the preprocessed file is what a compiler translates.
        preprocess: true,
        cpu_limit: None,
        run_env: Vec::new(),
    };
    let scratch = match tempfile::Builder::new().prefix("p2c-suite.").tempdir() {
        Ok(t) => t,
        Err(e) => {
            eprintln!(
                "error: cannot create a temporary directory: {}",
                io_message(&e)
            );
            return EXIT_USAGE;
        }
    };
    let known_failed = AtomicUsize::new(0);
    let print = |r: &SuiteResult| {
        let (line, is_known) = annotate(&r.line, &r.path, r.passed, known.get(&r.path));
        if is_known {
            known_failed.fetch_add(1, Ordering::SeqCst);
        }
        println!("{line}");
    };
    let results = run_all(&dir, &paths, a.jobs, &opts, &tc, scratch.path(), &print);
    let passed = results.iter().filter(|r| r.passed).count();
    let known_failed = known_failed.load(Ordering::SeqCst);
    if a.known.is_some() {
        println!(
            "{passed} passed, {} failed ({known_failed} of them known failures that are not the \
             translation's: test defects or host compiler)",
            results.len() - passed
        );
    } else {
        println!("{passed} passed, {} failed", results.len() - passed);
    }
    if passed == results.len() {
        EXIT_OK
    } else {
        EXIT_ERRORS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_formats() {
        let tsv = "file\tkind\tsource\nopenmp_vv/tests/4.5/a.c\tomp\tx\n\n# comment\nopenaccvv/Tests/b.c\tacc\ty\n";
        assert_eq!(
            parse_list(tsv),
            vec!["openmp_vv/tests/4.5/a.c", "openaccvv/Tests/b.c"]
        );
        assert_eq!(parse_list("a.c\n  b.c  \n"), vec!["a.c", "b.c"]);
    }

    #[test]
    fn include_dirs_found_for_both_suites() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join("openmp_vv/ompvv")).unwrap();
        std::fs::write(root.join("openmp_vv/ompvv/ompvv.h"), "").unwrap();
        std::fs::create_dir_all(root.join("openmp_vv/tests/4.5/x")).unwrap();
        std::fs::create_dir_all(root.join("openaccvv/Tests")).unwrap();
        std::fs::write(root.join("openaccvv/Tests/acc_testsuite.h"), "").unwrap();
        let dirs = suite_include_dirs(root, &root.join("openmp_vv/tests/4.5/x/t.c"));
        assert_eq!(
            dirs,
            vec![root.join("openmp_vv/ompvv"), root.join("openaccvv/Tests")]
        );
    }
}
