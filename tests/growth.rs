//! Growth shape of a full translation (issue 15), by instruction count,
//! never by time: for inputs of `scripts/gen-large-c.py` (one offload
//! region per 50 lines, per 10 lines, and plain C), translating 4x the
//! input costs under 5x the instructions, once the cost of translating an
//! empty file (the prelude, the namer's tables) is taken off both.
//!
//! Counts come from `valgrind --tool=cachegrind --cache-sim=no`; where
//! valgrind or python3 is missing the test says so and checks nothing.
//! `P2C_GROWTH_BIN=path` measures another pragma2cuda binary (an older
//! build, to see the test fail on a quadratic stage).

use std::path::{Path, PathBuf};
use std::process::Command;

fn have(cmd: &str) -> bool {
    Command::new(cmd)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn binary() -> PathBuf {
    std::env::var_os("P2C_GROWTH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_pragma2cuda")))
}

/// Instructions of translating `input` (the whole process).
fn instructions(dir: &Path, input: &Path) -> u64 {
    let out = dir.join("cg.out");
    let status = Command::new("valgrind")
        .args(["--tool=cachegrind", "--cache-sim=no", "-q"])
        .arg(format!("--cachegrind-out-file={}", out.display()))
        .arg(binary())
        .arg(input)
        .arg("-o")
        .arg(dir.join("out.cu"))
        .status()
        .expect("valgrind runs");
    assert!(status.success(), "translating {} failed", input.display());
    let text = std::fs::read_to_string(&out).expect("cachegrind output");
    text.lines()
        .find_map(|l| l.strip_prefix("summary:"))
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a summary line")
}

fn generate(dir: &Path, bytes: usize, per: u32) -> PathBuf {
    let path = dir.join(format!("gen-{per}-{bytes}.c"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gen-large-c.py");
    let out = Command::new("python3")
        .arg(script)
        .args(["--bytes", &bytes.to_string(), "--per", &per.to_string()])
        .output()
        .expect("python3 runs");
    assert!(out.status.success());
    std::fs::write(&path, out.stdout).unwrap();
    path
}

#[test]
fn four_times_the_input_costs_under_five_times_the_instructions() {
    if !have("valgrind") || !have("python3") {
        eprintln!("growth: valgrind or python3 missing; not measured");
        return;
    }
    let dir = std::env::temp_dir().join(format!("p2c-growth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.c");
    std::fs::write(&empty, "int main(void) { return 0; }\n").unwrap();
    let base = instructions(&dir, &empty);
    for per in [50, 10, 0] {
        let small = instructions(&dir, &generate(&dir, 24 * 1024, per));
        let large = instructions(&dir, &generate(&dir, 96 * 1024, per));
        let ratio = (large - base) as f64 / (small - base) as f64;
        eprintln!("growth: per {per}: {small} -> {large} instructions (base {base}): {ratio:.2}x");
        assert!(
            ratio < 5.0,
            "one pragma per {per} lines: 4x the input costs {ratio:.2}x the instructions"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
