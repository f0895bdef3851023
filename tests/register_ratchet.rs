//! The register ratchet (issue 20): `scripts/register-ratchet.sh` fails a
//! kernel that goes above clang-19's register count where it was not before,
//! or above its ratchet value, and the repository's ratchet file is well formed.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const HEADER: &str =
    "file\tkernel\tp2c_regs\tp2c_smem\tp2c_spill\tclang_regs\tclang_smem\tclang_spill\n";

/// Runs the check on `table` (rows after the header) with `ratchet` as the file.
fn check(ratchet: &str, table: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ratchet.tsv");
    std::fs::write(&file, ratchet).unwrap();
    let mut child = Command::new("bash")
        .arg(repo().join("scripts/register-ratchet.sh"))
        .arg(&file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = format!("{HEADER}{table}");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

const TABLE: &str =
    "a\tk1\t10\t0\t0\t12\t0\t0\na\tk2\t20\t0\t0\t12\t0\t0\nb\tk3\t90\t0\t0\t-\t-\t-\n";

#[test]
fn a_kernel_newly_above_clang_fails() {
    let (ok, out) = check("# nothing listed\n", TABLE);
    assert!(!ok, "{out}");
    assert!(
        out.contains("FAIL a k2: 20 registers, clang-19 12 (not in the ratchet file)"),
        "{out}"
    );
    assert!(!out.contains("k3"), "no clang kernel, not compared: {out}");
}

#[test]
fn a_listed_kernel_may_stay_at_its_value_but_not_rise() {
    let (ok, out) = check("a\tk2\t20\t12\n", TABLE);
    assert!(ok, "{out}");
    let (ok, out) = check("a\tk2\t19\t12\n", TABLE);
    assert!(!ok, "{out}");
    assert!(out.contains("above its ratchet value 19"), "{out}");
}

#[test]
fn an_improved_kernel_is_reported_for_tightening() {
    let (ok, out) = check("a\tk2\t24\t12\na\tk1\t14\t12\n", TABLE);
    assert!(ok, "{out}");
    assert!(
        out.contains("note a k2: 20 registers, ratchet 24: lower its ratchet line"),
        "{out}"
    );
    assert!(
        out.contains("note a k1: 10 registers, clang-19 12: at or below clang now"),
        "{out}"
    );
}

#[test]
fn the_ratchet_file_lists_kernels_above_clang() {
    let text = std::fs::read_to_string(repo().join("fixtures/registers-above-clang.tsv")).unwrap();
    for line in text.lines().map(|l| l.split('#').next().unwrap_or("")) {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "file, kernel, ours, clang: `{line}`");
        let ours: u32 = f[2].parse().unwrap();
        let clang: u32 = f[3].parse().unwrap();
        assert!(ours > clang, "at or below clang: remove `{line}`");
        assert!(
            repo()
                .join("fixtures/in")
                .join(format!("{}.c", f[0]))
                .exists(),
            "`{line}`"
        );
    }
}
