//! `pragma2cuda verify` from the command line on small C programs: what
//! counts as a pass (issue 14). Needs gcc and g++ (the emulator headers are
//! in the checkout).

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `pragma2cuda verify ARGS` in `cwd`; panics when it has not returned
/// within `within`.
fn verify(args: &[&str], cwd: &Path, within: Duration) -> (Output, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pragma2cuda"))
        .arg("verify")
        .args(args)
        .args(["--device", "emulate"])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pragma2cuda");
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > within {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!(
                "verify {args:?} did not return within {within:?}\n{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (child.wait_with_output().unwrap(), start.elapsed())
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

const REGION: &str = "\
  int a[4] = {0};
#pragma omp target teams distribute parallel for map(tofrom: a[0:4])
  for (int i = 0; i < 4; i++) a[i] = i;
  printf(\"%d\\n\", a[3]);
";

fn program(tail: &str) -> String {
    format!(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\nint main(void) {{\n{REGION}{tail}}}\n"
    )
}

/// The translation aborts just as the original does; that is no pass.
#[test]
fn an_aborting_reference_is_reference_failed() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("p.c"),
        program("  fflush(stdout);\n  abort();\n"),
    )
    .unwrap();
    let (o, _) = verify(&["p.c"], d.path(), Duration::from_secs(600));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with(
            "REFERENCE-FAILED p.c: the reference (gcc's build of the original) killed by signal 6"
        ),
        "{}",
        text(&o)
    );
}

/// A program that starts a child in its own session which holds stdout
/// open and sleeps for ever: verify returns on time and the child is killed.
#[test]
fn timeout_kills_a_setsid_child_and_returns() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("p.c"),
        program(
            "  fflush(stdout);\n  if (fork() == 0) {\n    setsid();\n    FILE *f = fopen(\"child.pid\", \"w\");\n    fprintf(f, \"%d\\n\", (int)getpid());\n    fclose(f);\n    for (;;) pause();\n  }\n  for (;;) pause();\n",
        ),
    )
    .unwrap();
    let (o, took) = verify(
        &["p.c", "--timeout", "2", "--keep", "kept"],
        d.path(),
        Duration::from_secs(300),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("timed out after 2 s"),
        "{}",
        text(&o)
    );
    let pid = std::fs::read_to_string(d.path().join("kept/child.pid")).unwrap();
    let alive = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
        .is_ok_and(|s| !s.contains(") Z "));
    assert!(!alive, "the setsid child {} survived verify", pid.trim());
    assert!(took < Duration::from_secs(300), "{took:?}");
}

/// `--keep DIR` with a relative DIR: the programs run inside DIR, and their
/// paths must not be resolved a second time from there.
#[test]
fn keep_accepts_a_relative_directory() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("p.c"), program("  return 0;\n")).unwrap();
    let (o, _) = verify(
        &["p.c", "--keep", "kept/here"],
        d.path(),
        Duration::from_secs(900),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("PASS p.c"),
        "{}",
        text(&o)
    );
    for f in ["p.cu", "reference", "emulator"] {
        assert!(d.path().join("kept/here").join(f).is_file(), "{f} not kept");
    }
}
