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
        &["-Wbogus", "a.c"],
        &["--preprocess", "-I"],
        &["--preprocess", "-D", "1X", "a.c"],
        &["--preprocess", "-UX=1", "a.c"],
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
        "--explain",
        "verify",
        "suite",
        "--preprocess",
        "-I DIR, -D NAME[=VAL], -U NAME",
        "P2C_CPP",
        "EXIT STATUS",
    ] {
        assert!(h.contains(needle), "help lacks {needle:?}");
    }
    let o = run(&["--version"], d.path());
    assert_eq!(o.status.code(), Some(0));
    let v = String::from_utf8_lossy(&o.stdout);
    assert!(
        v.starts_with(&format!("pragma2cuda {}", env!("CARGO_PKG_VERSION"))),
        "{v}"
    );
}

/// `--version` names the commit the binary was built from when the source
/// is a git checkout (#19).
#[test]
fn version_names_the_git_commit() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(repo)
        .output();
    let Some(head) = head
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    else {
        eprintln!("not a git checkout: nothing to check");
        return;
    };
    let o = run(&["--version"], repo);
    let v = String::from_utf8_lossy(&o.stdout).trim().to_string();
    let commit = v
        .strip_prefix(&format!(
            "pragma2cuda {} (commit ",
            env!("CARGO_PKG_VERSION")
        ))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("no commit in {v:?}"));
    // Built from this checkout, at HEAD or (uncommitted test runs) before it.
    assert!(
        commit.len() >= 7 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
        "{v}"
    );
    let known = Command::new("git")
        .args(["cat-file", "-e", &format!("{commit}^{{commit}}")])
        .current_dir(repo)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        known || head.starts_with(commit),
        "{commit} is not a commit of this repository"
    );
}

/// `--explain CODE` prints the rule's documentation, whatever the case of the
/// code; an unknown code is a usage error; `all` lists every code.
#[test]
fn explain_prints_rule_documentation() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&["--explain", "e0205"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(t.starts_with("E0205: "), "{t}");
    assert!(t.contains("Rule `loop_association`"), "{t}");
    assert!(t.contains("```c"), "no example in:\n{t}");
    let o = run(&["--explain=E0401"], d.path());
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("E0401: "));
    let o = run(&["--explain", "E0999"], d.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`E0999`"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let o = run(&["--explain", "all"], d.path());
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(t.lines().any(|l| l.starts_with("E0210  ")), "{t}");
    assert!(t.lines().any(|l| l.starts_with("E0902  ")), "{t}");
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
    let lib_file = pragma2cuda::translate(
        &pragma2cuda::source::SourceFile::new("saxpy.c", SAXPY),
        &pragma2cuda::Options {
            output_name: Some("saxpy.cu".into()),
            ..Default::default()
        },
    );
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
        assert_eq!(Some(written), lib_file.output.clone());
    } else {
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert_eq!(written, "old content\n");
        assert!(
            stderr(&o).contains("error"),
            "a failure without a message: {}",
            stderr(&o)
        );
    }

    // Standard input is named `<stdin>` in the output.
    let lib_stdin = pragma2cuda::translate(
        &pragma2cuda::source::SourceFile::new("<stdin>", SAXPY),
        &pragma2cuda::Options::default(),
    );
    for args in [&["saxpy.c"][..], &["saxpy.c", "-o", "-"], &["-"]] {
        let o = run_stdin(args, d.path(), SAXPY.as_bytes());
        let want = if args == ["-"] {
            &lib_stdin.output
        } else {
            &lib.output
        };
        if ok {
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            assert_eq!(
                Some(String::from_utf8_lossy(&o.stdout).into_owned()),
                *want,
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

// ---------------------------------------------------------------------------
// --preprocess (runs `cc -E`; gcc is part of this project's toolchain)

/// A program whose pragmas come from a header: a `_Pragma` macro, a
/// stringizing macro, and a pragma inside the header's own function.
fn preprocess_project(dir: &Path) {
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(
        dir.join("inc/par.h"),
        "\
#ifndef PAR_H
#define PAR_H
#include <stddef.h>
#define PAR _Pragma(\"omp target teams distribute parallel for map(tofrom: a[0:n])\")
#define DO_PRAGMA(x) _Pragma(#x)
static void scale(double *a, int n)
{
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) BAD_CLAUSE
    for (int i = 0; i < n; i++)
        a[i] *= 2;
}
#endif
",
    )
    .unwrap();
    std::fs::write(
        dir.join("m.c"),
        "\
#include <stdio.h>
#include \"par.h\"
/* a comment */
int main(void)
{
    int n = 100; double a[100];
    PAR
    for (int i = 0; i < n; i++) a[i] = i;
    DO_PRAGMA(omp target teams distribute parallel for map(tofrom: a[0:n]))
    for (int i = 0; i < n; i++) a[i] += SCALE;
#ifdef USE_LAST
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++) a[i] += 1;
#endif
    printf(\"%g\\n\", a[5]);
    return 0;
}
",
    )
    .unwrap();
}

/// The header's function with a valid pragma, so the whole program translates.
fn fix_header(dir: &Path) {
    let h = std::fs::read_to_string(dir.join("inc/par.h")).unwrap();
    std::fs::write(dir.join("inc/par.h"), h.replace(" BAD_CLAUSE", "")).unwrap();
}

#[test]
fn without_preprocess_header_pragma_macros_are_reported() {
    let d = tempfile::tempdir().unwrap();
    preprocess_project(d.path());
    let o = run(&["--diagnostics-format=gcc", "m.c", "-o", "m.cu"], d.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("m.c:7:5: warning: `PAR` before this loop is not defined in this file"),
        "{e}"
    );
    assert!(
        e.contains("m.c:9:5: error: this pragma comes from macro `DO_PRAGMA`, which this file does not define [E0105]"),
        "{e}"
    );
    assert_eq!(e.matches("--preprocess").count(), 2, "{e}");
}

#[test]
fn preprocess_translates_pragmas_from_header_macros() {
    let d = tempfile::tempdir().unwrap();
    preprocess_project(d.path());
    fix_header(d.path());
    let o = run(
        &[
            "--preprocess",
            "-I",
            "inc",
            "-DSCALE=3",
            "--emit=plan",
            "m.c",
        ],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plan = String::from_utf8_lossy(&o.stdout);
    let regions: Vec<&str> = plan.lines().filter(|l| l.starts_with("region ")).collect();
    // Places are the original files and lines (the header's function, the two macro uses).
    assert_eq!(
        regions,
        [
            "region scale_L8 at inc/par.h:8:1 in scale()",
            "region main_L7 at m.c:7:1 in main()",
            "region main_L9 at m.c:9:1 in main()",
        ],
        "{plan}"
    );

    let o = run(
        &[
            "--preprocess",
            "-Iinc",
            "-D",
            "SCALE=3",
            "m.c",
            "-o",
            "m.cu",
        ],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let cu = std::fs::read_to_string(d.path().join("m.cu")).unwrap();
    // User headers are inlined, system headers stay #include lines, no line markers remain.
    assert!(cu.contains("#include <stdio.h>\n"), "{cu}");
    assert!(cu.contains("#include <stddef.h>\n"), "{cu}");
    assert!(cu.contains("static void scale(double *a, int n)"), "{cu}");
    assert!(!cu.contains("#include \"par.h\""), "{cu}");
    assert!(!cu.contains("\n# 1 \""), "{cu}");
    assert!(
        !cu.contains("__STDC_VERSION__"),
        "built-in macros leaked: {cu}"
    );
    assert!(cu.contains("/* a comment */"), "comments are kept: {cu}");
    assert!(cu.contains("a[i] += 3;"), "{cu}");
    assert!(
        cu.contains("\"m.c:7\""),
        "runtime places name the original line: {cu}"
    );
    assert!(cu.contains("\"inc/par.h:8\""), "{cu}");
}

#[test]
fn preprocess_flags_apply_in_order() {
    let d = tempfile::tempdir().unwrap();
    preprocess_project(d.path());
    fix_header(d.path());
    let regions = |args: &[&str]| {
        let mut a = vec!["--preprocess", "-Iinc", "-DSCALE=1", "--emit=plan"];
        a.extend_from_slice(args);
        a.push("m.c");
        let o = run(&a, d.path());
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| l.starts_with("region "))
            .count()
    };
    assert_eq!(regions(&[]), 3);
    assert_eq!(regions(&["-DUSE_LAST"]), 4);
    assert_eq!(regions(&["-D", "USE_LAST=1"]), 4);
    assert_eq!(regions(&["-DUSE_LAST", "-UUSE_LAST"]), 3);
    assert_eq!(regions(&["-DUSE_LAST", "-U", "USE_LAST"]), 3);
}

#[test]
fn preprocess_diagnostics_name_original_files() {
    let d = tempfile::tempdir().unwrap();
    preprocess_project(d.path());
    let o = run(
        &[
            "--preprocess",
            "-Iinc",
            "-DSCALE=3",
            "--diagnostics-format=gcc",
            "m.c",
            "-o",
            "m.cu",
        ],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "inc/par.h:8:70: error: unknown OpenMP clause `BAD_CLAUSE` [E0103]\n"
    );
    assert!(!d.path().join("m.cu").exists());
    let o = run(&["--preprocess", "-Iinc", "-DSCALE=3", "m.c"], d.path());
    let e = stderr(&o);
    assert!(e.contains("┌─ inc/par.h:8:70"), "{e}");
    assert!(e.contains("8 │ #pragma omp target teams"), "{e}");
    // Standard input: the preprocessor reads it with the same flags.
    let text = std::fs::read(d.path().join("m.c")).unwrap();
    let o = run_stdin(
        &[
            "--preprocess",
            "-Iinc",
            "-DSCALE=3",
            "--diagnostics-format=json",
            "-",
        ],
        d.path(),
        &text,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stderr).expect("JSON");
    assert_eq!(v[0]["file"], "inc/par.h");
    assert_eq!(v[0]["labels"][0]["line"], 8);
}

#[test]
fn preprocess_fixes_the_unknown_macro_fixture() {
    // fixtures/bad/omp_pragma_from_unknown_macro.c fails without the
    // preprocessor; with it, its three macro pragmas are lowered.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = run(
        &[
            "--preprocess",
            "--emit=plan",
            "fixtures/bad/omp_pragma_from_unknown_macro.c",
        ],
        root,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plan = String::from_utf8_lossy(&o.stdout);
    let at: Vec<&str> = plan
        .lines()
        .filter_map(|l| l.strip_prefix("region ")?.split(" at ").nth(1))
        .collect();
    assert_eq!(
        at,
        [
            "fixtures/bad/omp_pragma_from_unknown_macro.c:17:1 in main()",
            "fixtures/bad/omp_pragma_from_unknown_macro.c:21:1 in main()",
            "fixtures/bad/omp_pragma_from_unknown_macro.c:23:1 in main()",
        ],
        "{plan}"
    );
}

#[test]
fn preprocess_missing_preprocessor_exits_2() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("s.c"), SAXPY).unwrap();
    let o = bin()
        .args(["--preprocess", "s.c", "-o", "s.cu"])
        .current_dir(d.path())
        .env("P2C_CPP", "/nonexistent/p2c-cpp -E")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.starts_with("error[E0004]: --preprocess needs a C preprocessor, but none can be run (`/nonexistent/p2c-cpp`: No such file or directory)"),
        "{e}"
    );
    assert!(e.contains("P2C_CPP"), "{e}");
    assert_eq!(files_in(d.path()), vec!["s.c"]);
}

#[test]
fn preprocess_errors_in_the_input_exit_1() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("s.c"),
        format!("#include \"missing.h\"\n{SAXPY}"),
    )
    .unwrap();
    let o = run(&["--preprocess", "s.c", "-o", "s.cu"], d.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("missing.h"),
        "the preprocessor's own message is shown: {e}"
    );
    assert!(
        e.contains("error[E0004]: the C preprocessor (`cc`) failed on `s.c`"),
        "{e}"
    );
    assert_eq!(files_in(d.path()), vec!["s.c"]);
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

/// A reduction into a scalar the enclosing braced `target` leaves
/// firstprivate: translated (exit 0), with W0005 at each such item only,
/// the mapped ones silent.
#[test]
fn unmapped_reduction_in_target_block_warns_w0005() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("p2c_w0005_{}.cu", std::process::id()));
    let o = run(
        &[
            "fixtures/in/omp_reduction_unmapped_block.c",
            "--diagnostics-format",
            "gcc",
            "-o",
            out.to_str().unwrap(),
        ],
        dir,
    );
    let _ = std::fs::remove_file(&out);
    assert!(o.status.success(), "{}", stderr(&o));
    let warned: Vec<String> = stderr(&o)
        .lines()
        .filter(|l| l.contains("[W0005]"))
        .map(|l| l.split(':').take(3).collect::<Vec<_>>().join(":"))
        .collect();
    assert_eq!(
        warned,
        [
            "fixtures/in/omp_reduction_unmapped_block.c:24:56",
            "fixtures/in/omp_reduction_unmapped_block.c:40:53",
            "fixtures/in/omp_reduction_unmapped_block.c:52:58",
        ]
    );
}

/// The input path is written into the output's first comment and into its
/// string literals (`p2c_where`): a `*/`, a newline, `"` or `\` in it must
/// stay inside them (#14; they injected code before).
#[test]
fn input_path_is_escaped_in_comments_and_strings() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("odd*");
    std::fs::create_dir(&dir).unwrap();
    let name = "n\nint injected;\"\\.c";
    std::fs::write(dir.join(name), SAXPY).unwrap();
    let rel = format!("odd*/{name}");
    let o = run(&[&rel], d.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("/* Generated by pragma2cuda"), "{first}");
    assert_eq!(first.matches("*/").count(), 1, "{first}");
    assert!(first.ends_with("*/"), "{first}");
    assert!(
        !out.lines().any(|l| l.starts_with("int injected;")),
        "the path's newline reached the output"
    );
    assert!(
        out.contains(r#"= "odd*/n\nint injected;\"\\.c:5";"#),
        "p2c_where is not the escaped path"
    );
}

/// `--preprocess`: a header's include guard `#define H_H ` with a blank
/// before its newline, then a prototype over two lines. tree-sitter-c read
/// the prototype's first line as the macro's value, and `extern "C" {`
/// was inserted inside the prototype (#14).
#[test]
fn preprocess_include_guard_with_trailing_blank_keeps_prototypes_whole() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("h.h"),
        "#ifndef H_H\n#define H_H \n\nint twice(int a,\n          int b);\n#endif\n",
    )
    .unwrap();
    std::fs::write(
        d.path().join("m.c"),
        "#include \"h.h\"\nint twice(int a, int b) { return a * b; }\nint main(void) { return twice(1, 0); }\n",
    )
    .unwrap();
    let o = run(&["--preprocess", "--no-line-directives", "m.c"], d.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("extern \"C\" {\nint twice(int a,\n          int b);"),
        "{}",
        &out[out.find("translated source").unwrap_or(0)..]
    );
}

// Compiler-grade flags (#19): -I/-D/-U, -MD, warning control, SARIF, the prelude header

/// `-I`, `-D` and `-U` imply `--preprocess` (they were a usage error without it).
#[test]
fn cpp_flags_imply_preprocess() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("s.c"), SAXPY.replace("[8]", "[LEN]")).unwrap();
    let o = run(&["-DLEN=8", "s.c"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("float x[8], y[8];"),
        "not preprocessed:\n{out:.2000}"
    );
}

/// A program with a quoted header that itself includes one, for -MD.
fn dep_project(dir: &Path) {
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(
        dir.join("inc/len.h"),
        "#include \"more.h\"\n#define LEN 8\n",
    )
    .unwrap();
    std::fs::write(dir.join("inc/more.h"), "#define SCALE 2\n").unwrap();
    std::fs::write(
        dir.join("s.c"),
        format!(
            "#include \"inc/len.h\"\n{}",
            SAXPY.replace("[8]", "[LEN]").replace("2 * x", "SCALE * x")
        ),
    )
    .unwrap();
}

/// `-MD -MP`: the rule names the output, the input and every quoted header
/// (found beside the file that includes it), as gcc writes it.
#[test]
fn md_writes_the_make_rule_beside_the_output() {
    let d = tempfile::tempdir().unwrap();
    dep_project(d.path());
    let o = run(&["-MD", "-MP", "s.c", "-o", "s.cu"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(d.path().join("s.d")).unwrap(),
        "s.cu: s.c \\\n  inc/len.h \\\n  inc/more.h\n\ninc/len.h:\n\ninc/more.h:\n"
    );
    // -MF and -MT name the file and the target; a failed run writes neither.
    let o = run(
        &[
            "-MD",
            "-MF",
            "deps/x.dep",
            "-MT",
            "obj/s.cu",
            "s.c",
            "-o",
            "s.cu",
        ],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(2), "the -MF directory is missing");
    std::fs::create_dir(d.path().join("deps")).unwrap();
    let o = run(
        &[
            "-MD",
            "-MFdeps/x.dep",
            "-MT",
            "obj/s.cu",
            "s.c",
            "-o",
            "s.cu",
        ],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(d.path().join("deps/x.dep")).unwrap(),
        "obj/s.cu: s.c \\\n  inc/len.h \\\n  inc/more.h\n"
    );
}

/// Under `--preprocess` the rule lists every file the preprocessor read;
/// `-MMD` leaves the system headers out.
#[test]
fn md_under_preprocess_lists_what_the_preprocessor_read() {
    let d = tempfile::tempdir().unwrap();
    dep_project(d.path());
    let s = std::fs::read_to_string(d.path().join("s.c")).unwrap();
    std::fs::write(
        d.path().join("s.c"),
        s.replace("\"inc/len.h\"", "\"len.h\""),
    )
    .unwrap();
    let o = run(&["-MMD", "-Iinc", "s.c", "-o", "s.cu"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(d.path().join("s.d")).unwrap(),
        "s.cu: s.c \\\n  inc/len.h \\\n  inc/more.h\n"
    );
    let o = run(&["-MD", "-Iinc", "s.c", "-o", "s.cu"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rule = std::fs::read_to_string(d.path().join("s.d")).unwrap();
    assert!(
        rule.contains("stdio.h \\\n"),
        "system headers listed: {rule}"
    );
    assert!(rule.contains("  inc/len.h \\\n  inc/more.h"), "{rule}");
}

/// make with a `-MD` rule rebuilds the translation when a header changes,
/// and only then.
#[test]
fn make_rebuilds_when_a_header_changes() {
    let d = tempfile::tempdir().unwrap();
    dep_project(d.path());
    std::fs::write(
        d.path().join("Makefile"),
        format!(
            "P2C := {}\n%.cu: %.c\n\t$(P2C) -MD -MP $< -o $@\n-include s.d\n",
            env!("CARGO_BIN_EXE_pragma2cuda")
        ),
    )
    .unwrap();
    let make = |args: &[&str]| {
        Command::new("make")
            .args(args)
            .current_dir(d.path())
            .output()
            .expect("run make")
    };
    let o = make(&["s.cu"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Up to date: `make -q` exits 0.
    assert_eq!(make(&["-q", "s.cu"]).status.code(), Some(0));
    // The nested header changes: out of date, and make translates again.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .append(true)
        .open(d.path().join("inc/more.h"))
        .unwrap()
        .set_modified(later)
        .unwrap();
    assert_eq!(make(&["-q", "s.cu"]).status.code(), Some(1));
    let o = make(&["s.cu"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("-MD -MP s.c -o s.cu"));
    // A deleted header (with -MP's phony rules) does not stop make.
    std::fs::remove_file(d.path().join("inc/more.h")).unwrap();
    std::fs::write(
        d.path().join("inc/len.h"),
        "#define LEN 8\n#define SCALE 2\n",
    )
    .unwrap();
    let o = make(&["s.cu"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// One input per documented warning, each emitted with its code.
const WARNINGS: &[(&str, &str)] = &[
    ("W0003", "int main(void)\n{\n    double a[10];\n    OMP_FOR\n    for (int i = 0; i < 10; i++) a[i] = i;\n    return (int)a[1] - 1;\n}\n"),
    ("W0004", include_str!("../fixtures/in/omp_orphan_one_thread.c")),
    ("W0005", include_str!("../fixtures/in/omp_reduction_unmapped_block.c")),
];

/// Every warning `--explain all` lists is emitted by some input (the ones
/// never emitted were retired), and each input warns with that code.
#[test]
fn every_documented_warning_is_emitted() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&["--explain", "all"], d.path());
    let mut listed: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.starts_with('W'))
        .map(|l| l[..5].to_string())
        .collect();
    listed.sort();
    let tested: Vec<&str> = WARNINGS.iter().map(|(c, _)| *c).collect();
    assert_eq!(listed, tested, "a documented warning has no test input");
    for (code, text) in WARNINGS {
        std::fs::write(d.path().join("w.c"), text).unwrap();
        let o = run(&["--diagnostics-format=gcc", "w.c", "-o", "w.cu"], d.path());
        assert_eq!(o.status.code(), Some(0), "{code}: {}", stderr(&o));
        assert!(stderr(&o).contains("warning: "), "{code}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("[{code}]")),
            "{code}: {}",
            stderr(&o)
        );
    }
}

/// `-w`, `-Wno-CODE` (any case), `-WCODE` after it, and `-Werror`.
#[test]
fn warning_control_flags() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("w.c"), WARNINGS[0].1).unwrap();
    let gcc = ["--diagnostics-format=gcc", "w.c", "-o", "w.cu"];
    let with = |flags: &[&str]| {
        let mut a: Vec<&str> = flags.to_vec();
        a.extend(gcc);
        let _ = std::fs::remove_file(d.path().join("w.cu"));
        run(&a, d.path())
    };
    for off in [
        &["-w"][..],
        &["-Wno-W0003"],
        &["-Wno-w0003"],
        &["-WW0003", "-Wno-W0003"],
    ] {
        let o = with(off);
        assert_eq!(o.status.code(), Some(0), "{off:?}");
        assert_eq!(stderr(&o), "", "{off:?}");
        assert!(d.path().join("w.cu").exists(), "{off:?}");
    }
    let o = with(&["-Wno-W0003", "-WW0003"]);
    assert!(stderr(&o).contains("[W0003]"), "{}", stderr(&o));
    // -Werror: the warning is an error, nothing is written, exit 1.
    let o = with(&["-Werror"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("w.c:4:5: error: "), "{}", stderr(&o));
    assert!(!d.path().join("w.cu").exists());
    // A warning turned off is not an error either; -Werror -w writes the file.
    assert_eq!(with(&["-Werror", "-Wno-W0003"]).status.code(), Some(0));
    assert_eq!(with(&["-Werror", "-w"]).status.code(), Some(0));
    assert_eq!(with(&["-Werror", "-Wno-error"]).status.code(), Some(0));
}

/// `-fmax-errors=N` is `--max-errors N`.
#[test]
fn fmax_errors_is_max_errors() {
    let d = tempfile::tempdir().unwrap();
    let bad: String = (0..5)
        .map(|i| format!("void f{i}(int *a) {{\n#pragma omp target bogus{i}\n  a[0] = 1;\n}}\n"))
        .collect();
    std::fs::write(d.path().join("b.c"), bad).unwrap();
    let o = run(
        &["-fmax-errors=2", "--diagnostics-format=gcc", "b.c"],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert_eq!(e.matches(": error: ").count(), 3, "{e}");
    assert!(e.contains("--max-errors 2"), "{e}");
}

/// `--diagnostics-format=sarif`: a SARIF 2.1.0 log with the fields
/// code-scanning tools require.
#[test]
fn sarif_has_the_required_fields() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("w.c"), WARNINGS[0].1).unwrap();
    std::fs::write(
        d.path().join("e.c"),
        "int main(void)\n{\n    int a[4];\n    #pragma omp target teams distribute parallel for map(tofrom: a[0:4]) bogus\n    for (int i = 0; i < 4; i++) a[i] = i;\n    return 0;\n}\n",
    )
    .unwrap();
    for (file, level, rule, line, col, end) in [
        ("w.c", "warning", "W0003", 4, 5, 12),
        ("e.c", "error", "E0103", 4, 74, 79),
    ] {
        let o = run(
            &["--diagnostics-format=sarif", file, "-o", "x.cu"],
            d.path(),
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stderr).expect("SARIF is JSON");
        assert_eq!(v["version"], "2.1.0");
        assert!(v["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
        let run0 = &v["runs"][0];
        let driver = &run0["tool"]["driver"];
        assert_eq!(driver["name"], "pragma2cuda");
        assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(driver["rules"][0]["id"], rule);
        assert!(
            driver["rules"][0]["shortDescription"]["text"]
                .as_str()
                .unwrap()
                .len()
                > 10
        );
        let r = &run0["results"][0];
        assert_eq!(r["ruleId"], rule);
        assert_eq!(r["level"], level);
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], file);
        let reg = &loc["region"];
        assert_eq!(
            (
                &reg["startLine"],
                &reg["startColumn"],
                &reg["endLine"],
                &reg["endColumn"]
            ),
            (&line.into(), &col.into(), &line.into(), &end.into()),
            "{file}: {reg}"
        );
    }
    // No diagnostics: still a log, with an empty result list.
    std::fs::write(d.path().join("s.c"), SAXPY).unwrap();
    let o = run(
        &["--diagnostics-format=sarif", "s.c", "-o", "s.cu"],
        d.path(),
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stderr).expect("SARIF is JSON");
    assert_eq!(v["runs"][0]["results"], serde_json::json!([]));
}

/// Under `--preprocess`, positions are those of the user's file as written:
/// the preprocessor re-spaces pragma lines (`  #  pragma   omp` becomes
/// `#pragma omp`), which moved columns before.
#[test]
fn preprocess_positions_are_the_original_columns() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("e.c"),
        "int main(void)\n{\n    int a[4];\n    #  pragma   omp  target teams distribute parallel for map(tofrom: a[0:4])   bogus\n    for (int i = 0; i < 4; i++) a[i] = i;\n    return 0;\n}\n",
    )
    .unwrap();
    let o = run(
        &["--preprocess", "--diagnostics-format=gcc", "e.c"],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("e.c:4:81: error: unknown OpenMP clause `bogus` [E0103]"),
        "{}",
        stderr(&o)
    );
    let o = run(
        &["--preprocess", "--diagnostics-format=json", "e.c"],
        d.path(),
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stderr).unwrap();
    let l = &v[0]["labels"][0];
    assert_eq!(
        (&l["line"], &l["column"], &l["end_column"]),
        (&4.into(), &81.into(), &86.into()),
        "{l}"
    );
}

/// `--prelude=include`: the translation includes pragma2cuda_prelude.cuh
/// (checked against its version) instead of embedding the prelude;
/// `--print-prelude` writes that header.
#[test]
fn prelude_include_mode() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("s.c"), SAXPY).unwrap();
    let o = run(&["--prelude=include", "s.c", "-o", "s.cu"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let cu = std::fs::read_to_string(d.path().join("s.cu")).unwrap();
    assert!(
        cu.contains("#include \"pragma2cuda_prelude.cuh\"\n"),
        "{cu:.1500}"
    );
    assert!(cu.contains("#error"), "no version check:\n{cu:.1500}");
    let embedded = run(&["s.c"], d.path());
    let embedded = String::from_utf8_lossy(&embedded.stdout);
    assert!(
        cu.len() * 4 < embedded.len(),
        "the prelude is still embedded"
    );
    let o = run(&["--print-prelude"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let h = String::from_utf8_lossy(&o.stdout);
    assert!(h.contains("#define P2C_PRELUDE_ID"), "{h:.500}");
    // The check's number is the header's.
    let id = h
        .lines()
        .find_map(|l| l.strip_prefix("#define P2C_PRELUDE_ID "))
        .unwrap();
    assert!(
        cu.contains(&format!("P2C_PRELUDE_ID != {id}")),
        "{cu:.1500}"
    );
}

/// The include-mode translation compiles with the printed header, with
/// nvcc; a header of another version stops the compilation with the
/// check's #error. Needs nvcc (P2C_NVCC, from ~/.cache/pragma2cuda/env.sh).
#[test]
fn prelude_include_mode_compiles_with_nvcc() {
    let Some(nvcc) = std::env::var_os("P2C_NVCC").filter(|n| Path::new(n).exists()) else {
        eprintln!("P2C_NVCC not set: source ~/.cache/pragma2cuda/env.sh to run this test");
        return;
    };
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("s.c"), SAXPY).unwrap();
    let o = run(&["--prelude=include", "s.c", "-o", "s.cu"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["--print-prelude"], d.path());
    std::fs::write(d.path().join("pragma2cuda_prelude.cuh"), &o.stdout).unwrap();
    let compile = || {
        Command::new(&nvcc)
            .args(["-arch=sm_80", "-c", "s.cu", "-o", "s.o"])
            .current_dir(d.path())
            .output()
            .expect("run nvcc")
    };
    let c = compile();
    assert!(c.status.success(), "{}", stderr(&c));
    let h = String::from_utf8_lossy(&o.stdout)
        .replace("#define P2C_PRELUDE_ID ", "#define P2C_PRELUDE_ID 1");
    std::fs::write(d.path().join("pragma2cuda_prelude.cuh"), h).unwrap();
    let c = compile();
    assert!(!c.status.success());
    assert!(stderr(&c).contains("--print-prelude"), "{}", stderr(&c));
}

/// `--emit=plan-json --ptxas`: each region's registers and spills per
/// architecture, the figures nvcc `-Xptxas -v` prints for its kernel in the
/// CLI's own CUDA output (compiled here). Skipped without nvcc.
#[test]
fn plan_json_ptxas_figures() {
    let tc = pragma2cuda::tools::verify::Toolchain::from_env();
    let Some(nvcc) = tc.nvcc else {
        eprintln!("nvcc not configured (source ~/.cache/pragma2cuda/env.sh): skipped");
        return;
    };
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("r.c"),
        "int main(void)\n{\n    double x[64], s = 0;\n    for (int i = 0; i < 64; i++) x[i] = i;\n#pragma omp target teams distribute parallel for map(to: x[0:64]) reduction(+: s)\n    for (int i = 0; i < 64; i++)\n        s += x[i];\n    return s == 2016 ? 0 : 1;\n}\n",
    )
    .unwrap();
    let o = run(&["--emit=plan-json", "--ptxas", "r.c"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let p = v["regions"][0]["ptxas"].as_array().expect("ptxas figures");
    let archs: Vec<&str> = p.iter().map(|k| k["arch"].as_str().unwrap()).collect();
    assert_eq!(archs, ["sm_80", "sm_90"]);
    for k in p {
        assert!(
            k["spill_stores"].is_u64() && k["spill_loads"].is_u64(),
            "{k}"
        );
    }
    // The same figure from ptxas directly.
    let o = run(&["--no-line-directives", "r.c", "-o", "r.cu"], d.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let c = Command::new(nvcc)
        .args(["-c", "-arch=sm_80", "-Xptxas", "-v", "r.cu", "-o", "r.o"])
        .current_dir(d.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&c.stderr).into_owned();
    // `_Z7main_L5...` (external) or `_ZL7main_L5...` (static).
    let entry = text
        .match_indices("Compiling entry function '_Z")
        .map(|(i, _)| i)
        .find(|&i| text[i..].lines().next().unwrap().contains("7main_L5"))
        .unwrap_or_else(|| panic!("{text}"));
    let used = &text[entry..][text[entry..].find("Used ").unwrap() + 5..];
    let regs: u64 = used.split(' ').next().unwrap().parse().unwrap();
    assert!(regs > 0);
    assert_eq!(p[0]["registers"], regs, "{text}");
    // Without --emit=plan-json, --ptxas is a usage error.
    let o = run(&["--ptxas", "r.c"], d.path());
    assert_eq!(o.status.code(), Some(2));
}

/// `--emit=plan-json`: per region the kernel, range, construct, launch,
/// schedule, reductions with their strategy, and every variable with its
/// attribute and home, under the keys README.md documents.
#[test]
fn plan_json_has_the_documented_keys() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("r.c"),
        "int main(void)\n{\n    double x[64], s = 0;\n    for (int i = 0; i < 64; i++) x[i] = i;\n#pragma omp target teams distribute parallel for map(to: x[0:64]) reduction(+: s)\n    for (int i = 0; i < 64; i++)\n        s += x[i];\n    return s == 2016 ? 0 : 1;\n}\n",
    )
    .unwrap();
    let o = run(
        &["--emit=plan-json", "--reduction-strategy=lock", "r.c"],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["version"], 1);
    let r = &v["regions"][0];
    assert_eq!(r["kernel"], "main_L5");
    assert!(r.get("ptxas").is_none(), "only with --ptxas");
    assert_eq!(r["function"], "main");
    assert_eq!(r["model"], "omp");
    assert!(
        r["construct"]
            .as_str()
            .unwrap()
            .contains("target teams distribute parallel for"),
        "{r}"
    );
    assert_eq!(
        (&r["range"]["start_line"], &r["range"]["end_line"]),
        (&5.into(), &7.into()),
        "{r}"
    );
    assert_eq!(r["mode"], "spmd");
    assert!(r["schedule"].is_string(), "{r}");
    assert!(
        r["launch"]["threads_x"].is_number() || r["launch"]["threads_x"].is_string(),
        "{r}"
    );
    assert_eq!(r["reductions"]["strategy"], "lock");
    assert_eq!(r["reductions"]["items"][0]["variable"], "s");
    assert_eq!(r["reductions"]["items"][0]["operator"], "+");
    assert!(r["shared_bytes"].is_number(), "{r}");
    let x = r["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "x")
        .expect("x listed");
    assert!(x["attribute"].as_str().unwrap().contains("map(to)"), "{x}");
    assert_eq!(x["home"]["kind"], "global", "{x}");
}
