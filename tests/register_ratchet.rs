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

/// `scripts/ptxas-vs-clang.sh` with `P2C_PTXAS_TSV` (as `scripts/test` runs
/// it after the harness): our figures of the files the harness compiled come
/// from its report, no translation or nvcc run (`P2C_BIN=false` would fail
/// one), files in argument order though run in parallel, and a file with no
/// `omp` word goes to no clang-19 (its clang columns `-`).
#[test]
fn clang_table_reuses_the_harness_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("ptxas.tsv"),
        "fixture\tkernel\tarch\tregisters\tbarriers\tshared_bytes\tspill_stores\tspill_loads\tstack_frame\n\
         acc_b.c\t_Z8main_L21yiPiS_\tsm_80\t14\t0\t0\t0\t0\t0\n\
         acc_b.c\t_Z8main_L21yiPiS_\tsm_90\t16\t0\t8\t4\t4\t0\n\
         acc_b.c\t_Z8main_L30yiPi\tsm_90\t10\t0\t0\t0\t0\t0\n\
         acc_a.c\tmain_L9\tsm_90\t12\t0\t0\t0\t0\t0\n",
    )
    .unwrap();
    std::fs::write(
        d.join("fixtures.tsv"),
        "fixture\tresult\tstages\tfirst_failure\n\
         acc_a.c\tPASS\ttranslate compile emulate\t\n\
         acc_b.c\tPASS\ttranslate compile emulate\t\n",
    )
    .unwrap();
    for name in ["acc_a.c", "acc_b.c"] {
        std::fs::write(
            d.join(name),
            "int main(void) {\n#pragma acc parallel loop\nfor (int i = 0; i < 4; i++) ;\n}\n",
        )
        .unwrap();
    }
    let out = Command::new("bash")
        .arg(repo().join("scripts/ptxas-vs-clang.sh"))
        .arg(d.join("acc_b.c"))
        .arg(d.join("acc_a.c"))
        .env("P2C_PTXAS_TSV", d.join("ptxas.tsv"))
        .env("P2C_BIN", "false")
        .env("P2C_JOBS", "2")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text,
        format!(
            "{HEADER}acc_b\tmain_L21\t16\t8\t8\t-\t-\t-\n\
             acc_b\tmain_L30\t10\t0\t0\t-\t-\t-\n\
             acc_a\tmain_L9\t12\t0\t0\t-\t-\t-\n"
        ),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
