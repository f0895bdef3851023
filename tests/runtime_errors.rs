//! Runtime errors of the data environment: each program in
//! `fixtures/runtime/` translates cleanly, then fails when run on the CPU
//! SIMT emulator with the message its `// expect-runtime: TEXT` lines give
//! (the variable and the directive's `file:line`), and no crash. These
//! programs are wrong only on a device (gcc's host fallback has every
//! variable "present"), so they have no gcc reference.

use pragma2cuda::source::SourceFile;
use pragma2cuda::tools::verify::{
    build_emulator, run_limited, BuildInputs, ExtraObjects, Sanitizer, Tool, Toolchain,
};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

#[test]
fn runtime_errors_name_the_variable_and_the_line() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tc = Toolchain::from_env();
    let missing = tc.missing(&[Tool::Gxx]);
    assert!(missing.is_empty(), "toolchain incomplete: {missing:?}");
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo.join("fixtures/runtime"))
        .expect("fixtures/runtime")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for p in &files {
        let rel = format!(
            "fixtures/runtime/{}",
            p.file_name().unwrap().to_string_lossy()
        );
        let text = std::fs::read_to_string(p).unwrap();
        let expected: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("// expect-runtime: "))
            .collect();
        if expected.is_empty() {
            failures.push(format!("{rel}: no `// expect-runtime:` line"));
            continue;
        }
        let t = pragma2cuda::translate(
            &SourceFile::new(rel.clone(), text.clone()),
            &pragma2cuda::Options::default(),
        );
        let failed = t.has_errors();
        let Some(out) = t.output.filter(|_| !failed) else {
            failures.push(format!("{rel}: translation failed"));
            continue;
        };
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        let cu = work.path().join(format!("{stem}.cu"));
        std::fs::write(&cu, out).unwrap();
        let bin = work.path().join(&stem);
        if let Err(e) = build_emulator(
            &tc,
            &cu,
            &BuildInputs::default(),
            &ExtraObjects::default(),
            Sanitizer::None,
            &bin,
        ) {
            failures.push(format!("{rel}: emulator build failed:\n{e}"));
            continue;
        }
        let r = run_limited(&mut Command::new(&bin), Duration::from_secs(60)).unwrap();
        let stderr = String::from_utf8_lossy(&r.stderr).into_owned();
        if r.code != Some(1) || r.signal.is_some() {
            failures.push(format!(
                "{rel}: expected exit code 1 (a runtime error, not a crash), got {}\n{stderr}",
                r.status_text(Duration::from_secs(60))
            ));
        }
        for e in expected {
            if !stderr.contains(e) {
                failures.push(format!("{rel}: stderr lacks `{e}`:\n{stderr}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
