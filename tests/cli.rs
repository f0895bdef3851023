//! The command line as users see it: exit codes, messages, streams, and the
//! atomic output rule. Runs the built binary.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pragma2cuda"));
    c.env_remove("NO_COLOR");
    c
}

fn run(args: &[&str], cwd: &Path) -> Output {
    bin()
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .expect("run pragma2cuda")
}

fn run_stdin(args: &[&str], cwd: &Path, input: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn pragma2cuda");
    // A run that reads a file instead may close its stdin unread.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A C file with one offload region, for the cases that need a real input.
const SAXPY: &str = "\
#include <stdio.h>
int main(void) {
  float x[8], y[8];
  for (int i = 0; i < 8; i++) { x[i] = i; y[i] = 1; }
#pragma omp target teams distribute parallel for map(to: x[0:8]) map(tofrom: y[0:8])
  for (int i = 0; i < 8; i++) y[i] += 2 * x[i];
  printf(\"%g\\n\", y[7]);
  return 0;
}
";

#[test]
fn missing_input_is_e0001_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&["x.c"], d.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert_eq!(
        stderr(&o).lines().next(),
        Some("error[E0001]: cannot read input `x.c`: No such file or directory")
    );
}

#[test]
fn directory_as_input_is_e0001_exit_2() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("dir.c")).unwrap();
    let o = run(&["dir.c"], d.path());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).lines().next(),
        Some("error[E0001]: cannot read input `dir.c`: Is a directory")
    );
}

#[test]
fn input_not_utf8_is_e0001() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("latin1.c"), b"/* caf\xe9 */\nint x;\n").unwrap();
    let o = run(&["latin1.c"], d.path());
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.starts_with("error[E0001]: cannot read input `latin1.c`: not valid UTF-8"),
        "{e}"
    );
    let o = run_stdin(&["-"], d.path(), b"\xff\xfe");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error[E0001]: cannot read input `<stdin>`: not valid UTF-8"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn missing_output_directory_is_e0002_exit_2() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("a.c"), SAXPY).unwrap();
    let o = run(&["a.c", "-o", "no/such/dir/a.cu"], d.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).lines().next(),
        Some("error[E0002]: cannot write output `no/such/dir/a.cu`: No such file or directory")
    );
    assert_eq!(files_in(d.path()), vec!["a.c"]);
    let o = run(&["a.c", "-o", "."], d.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error[E0002]: cannot write output `.`: Is a directory"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn usage_errors_exit_2_with_usage_line() {
    let d = tempfile::tempdir().unwrap();
    for args in [
        &[][..],
        &["--emit=ptx", "a.c"],
        &["--diagnostics-format=xml", "a.c"],
        &["a.c", "b.c"],
        &["a.c", "-o"],
        &["--bogus", "a.c"],
        &["verify"],
        &["suite", "onlydir"],
    ] {
        let o = run(args, d.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.starts_with("error: "), "{args:?}: {e}");
        assert!(e.contains("\nusage: pragma2cuda"), "{args:?}: {e}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_and_version() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&["--help"], d.path());
    assert_eq!(o.status.code(), Some(0));
    let h = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "USAGE:",
        "-o, --output",
        "standard output",
        "--emit",
        "--diagnostics-format",
        "verify",
        "suite",
        "EXIT STATUS",
    ] {
        assert!(h.contains(needle), "help lacks {needle:?}");
    }
    let o = run(&["--version"], d.path());
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!("pragma2cuda {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn gcc_diagnostics_format_shape() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&["--diagnostics-format=gcc", "x.c"], d.path());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "x.c:1:1: error: cannot read input `x.c`: No such file or directory [E0001]\n"
    );
}

#[test]
fn json_diagnostics_format_shape() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&["--diagnostics-format", "json", "x.c"], d.path());
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stderr).expect("stderr is JSON");
    let items = v.as_array().expect("a JSON array");
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["code"], "E0001");
    assert_eq!(items[0]["severity"], "error");
    assert_eq!(items[0]["file"], "x.c");
    assert_eq!(items[0]["labels"][0]["line"], 1);
    assert_eq!(
        items[0]["message"],
        "cannot read input `x.c`: No such file or directory"
    );
}

#[test]
fn human_diagnostics_not_colored_when_not_a_terminal() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&["x.c"], d.path());
    assert!(!o.stderr.contains(&0x1b), "escape codes in {}", stderr(&o));
}

#[test]
fn failed_run_keeps_old_output_intact() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("out.cu"), "old content\n").unwrap();
    let o = run(&["missing.c", "-o", "out.cu"], d.path());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(d.path().join("out.cu")).unwrap(),
        "old content\n"
    );
    assert_eq!(
        files_in(d.path()),
        vec!["out.cu"],
        "a temporary file was left behind"
    );
}

/// The CLI writes exactly what the library produces, and its exit code follows
/// the diagnostics; whatever the translator's state, a failure leaves the old
/// file and a success replaces it whole.
#[test]
fn output_file_and_stdout_match_the_library() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("saxpy.c"), SAXPY).unwrap();
    std::fs::write(d.path().join("saxpy.cu"), "old content\n").unwrap();
    let lib = pragma2cuda::translate(
        &pragma2cuda::source::SourceFile::new("saxpy.c", SAXPY),
        &pragma2cuda::Options::default(),
    );
    let ok = lib.output.is_some() && !lib.has_errors();

    let o = run(&["saxpy.c", "-o", "saxpy.cu"], d.path());
    let written = std::fs::read_to_string(d.path().join("saxpy.cu")).unwrap();
    assert_eq!(files_in(d.path()), vec!["saxpy.c", "saxpy.cu"]);
    assert!(o.stdout.is_empty());
    if ok {
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(Some(written), lib.output.clone());
    } else {
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert_eq!(written, "old content\n");
        assert!(
            stderr(&o).contains("error"),
            "a failure without a message: {}",
            stderr(&o)
        );
    }

    for args in [&["saxpy.c"][..], &["saxpy.c", "-o", "-"], &["-"]] {
        let o = run_stdin(args, d.path(), SAXPY.as_bytes());
        if ok {
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            assert_eq!(
                Some(String::from_utf8_lossy(&o.stdout).into_owned()),
                lib.output,
                "{args:?}"
            );
        } else {
            assert_eq!(o.status.code(), Some(1), "{args:?}");
            assert!(o.stdout.is_empty(), "{args:?}");
        }
    }
}

#[test]
fn verify_reports_missing_input_as_e0001() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&["verify", "nope.c", "--device", "emulate"], d.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("error[E0001]: cannot read input `nope.c`: No such file or directory"),
        "{}",
        stderr(&o)
    );
}

/// `--shared-budget` moves the largest staged variables of a generic-mode
/// region to the team's frame in global memory; `--emit=sharing-json` shows
/// where each one went.
#[test]
fn shared_budget_moves_staged_variables_to_global_memory() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = "fixtures/in/omp_generic_fig6_a2.c";
    let frames = |budget: &str| -> (u64, u64, Vec<String>) {
        let o = run(
            &[
                "--emit=sharing-json",
                &format!("--shared-budget={budget}"),
                fixture,
            ],
            root,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let r = &v["regions"][0];
        let homes = r["scopes"][0]["variables"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["name"].as_str().is_some_and(|n| n.starts_with('d')))
            .map(|x| {
                format!(
                    "{}:{}",
                    x["name"].as_str().unwrap(),
                    x["location"]["kind"].as_str().unwrap()
                )
            })
            .collect();
        (
            r["shared_frame_bytes"].as_u64().unwrap(),
            r["global_frame_bytes"].as_u64().unwrap(),
            homes,
        )
    };
    // Two int[96] arrays: 768 bytes fit the default budget.
    assert_eq!(
        frames("32768"),
        (768, 0, vec!["d1:shared".into(), "d2:shared".into()])
    );
    // 400 bytes hold one of them; the other (the later, on a tie) goes to global memory.
    assert_eq!(
        frames("400"),
        (384, 384, vec!["d1:shared".into(), "d2:global".into()])
    );
    assert_eq!(
        frames("0"),
        (0, 768, vec!["d1:global".into(), "d2:global".into()])
    );
    let o = run(&["--shared-budget=100000", fixture], root);
    assert_eq!(o.status.code(), Some(2));
}
