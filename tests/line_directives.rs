//! `#line` directives (#19): the compilers name the user's `.c` file and
//! line for code copied from it, kernel bodies included, and the output's
//! own line for generated code. Runs the built binary; the nvcc and clang
//! checks run when the toolchain is installed (`source
//! ~/.cache/pragma2cuda/env.sh` sets P2C_NVCC, P2C_CLANG, P2C_CLANG_CUDA_ROOT).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Line 8 is in the kernel body, line 10 in host code.
const BAD: &str = "\
#include <stdio.h>
int main(void) {
  int n = 100;
  float a[100];
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < n; i++) {
    a[i] = i;
    a[i] += bogus_in_kernel;
  }
  printf(\"%f\\n\", a[1] + bogus_in_host);
  return 0;
}
";

fn run(args: &[&str], cwd: &Path, stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pragma2cuda"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn pragma2cuda");
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// The (file, line) a compiler gives line `k` (0-based) of `out`, reading
/// its `#line` directives; `name` is the file's own name.
fn presumed(out: &str, k: usize, name: &str) -> (String, usize) {
    let mut file = name.to_string();
    let mut line = 1;
    for l in out.lines().take(k) {
        let t = l.trim_start();
        if let Some(rest) = t.strip_prefix("#line ") {
            let (n, f) = rest.split_once(' ').expect("#line N \"FILE\"");
            line = n.parse().expect("a line number");
            file = f.trim_matches('"').to_string();
        } else {
            line += 1;
        }
    }
    (file, line)
}

/// Where the compiler places the first output line holding `needle`.
fn place_of(out: &str, needle: &str, name: &str) -> (String, usize) {
    let k = out
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` not in the output"));
    presumed(out, k, name)
}

fn own(s: &str, n: usize) -> (String, usize) {
    (s.to_string(), n)
}

#[test]
fn copied_lines_name_the_input_and_generated_lines_the_output() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("k.c"), BAD).unwrap();
    run(&["k.c", "-o", "k.cu"], d.path(), b"");
    let out = std::fs::read_to_string(d.path().join("k.cu")).unwrap();
    assert_eq!(place_of(&out, "bogus_in_kernel", "k.cu"), own("k.c", 8));
    assert_eq!(place_of(&out, "bogus_in_host", "k.cu"), own("k.c", 10));
    assert_eq!(place_of(&out, "int main(void)", "k.cu"), own("k.c", 2));
    assert_eq!(place_of(&out, "int n = 100;", "k.cu"), own("k.c", 3));
    // Generated code: its own line in the output.
    let launch = out
        .lines()
        .position(|l| l.contains("P2C_LAUNCH(main_L5"))
        .unwrap();
    assert_eq!(presumed(&out, launch, "k.cu"), own("k.cu", launch + 1));
    let kernel = out
        .lines()
        .position(|l| l.contains("__global__ void main_L5"))
        .unwrap();
    assert_eq!(presumed(&out, kernel, "k.cu"), own("k.cu", kernel + 1));

    // Standard input and output.
    let o = run(&["-"], d.path(), BAD.as_bytes());
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(place_of(&out, "bogus_in_kernel", "x"), own("<stdin>", 8));
    let launch = out
        .lines()
        .position(|l| l.contains("P2C_LAUNCH(main_L5"))
        .unwrap();
    assert_eq!(presumed(&out, launch, "x"), own("<stdout>", launch + 1));

    // Off.
    let o = run(&["--no-line-directives", "k.c"], d.path(), b"");
    assert!(!String::from_utf8(o.stdout).unwrap().contains("#line"));
}

/// Under --preprocess, a line copied from a user's header names the header.
#[test]
fn preprocessed_lines_name_their_headers() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("h.h"),
        "/* h */\nstatic float twice(float v)\n{\n    return 2 * v + bogus_in_header;\n}\n",
    )
    .unwrap();
    std::fs::write(
        d.path().join("k.c"),
        BAD.replace("<stdio.h>\n", "<stdio.h>\n#include \"h.h\"\n"),
    )
    .unwrap();
    run(&["--preprocess", "k.c", "-o", "k.cu"], d.path(), b"");
    let out = std::fs::read_to_string(d.path().join("k.cu")).unwrap();
    let (file, line) = place_of(&out, "bogus_in_header", "k.cu");
    assert!(file.ends_with("h.h") && line == 4, "{file}:{line}");
    assert_eq!(place_of(&out, "bogus_in_kernel", "k.cu"), own("k.c", 9));
    assert_eq!(place_of(&out, "bogus_in_host", "k.cu"), own("k.c", 11));
}

/// nvcc's and clang's errors for a bad identifier in a kernel body and in
/// host code name `k.c` and the lines.
#[test]
fn compilers_report_errors_at_the_c_file() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("k.c"), BAD).unwrap();
    run(&["k.c", "-o", "k.cu"], d.path(), b"");
    let mut ran = false;
    if let Some(nvcc) = std::env::var_os("P2C_NVCC").filter(|v| !v.is_empty()) {
        let o = Command::new(nvcc)
            .args(["-arch=sm_80", "-c", "k.cu", "-o", "k.o"])
            .current_dir(d.path())
            .output()
            .expect("run nvcc");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success());
        assert!(
            e.contains("k.c(8): error") && e.contains("bogus_in_kernel"),
            "{e}"
        );
        assert!(
            e.contains("k.c(10): error") && e.contains("bogus_in_host"),
            "{e}"
        );
        ran = true;
    }
    let clang = std::env::var_os("P2C_CLANG").filter(|v| !v.is_empty());
    let root = std::env::var_os("P2C_CLANG_CUDA_ROOT").filter(|v| !v.is_empty());
    if let (Some(clang), Some(root)) = (clang, root) {
        let mut path = std::ffi::OsString::from("--cuda-path=");
        path.push(root);
        for side in ["--cuda-device-only", "--cuda-host-only"] {
            let o = Command::new(&clang)
                .args(["-x", "cuda", "--cuda-gpu-arch=sm_80", "-fsyntax-only", side])
                .arg(&path)
                .arg("k.cu")
                .current_dir(d.path())
                .output()
                .expect("run clang");
            let e = String::from_utf8_lossy(&o.stderr);
            assert!(!o.status.success());
            assert!(
                e.contains("k.c:8:") && e.contains("bogus_in_kernel"),
                "{side}: {e}"
            );
        }
        ran = true;
    }
    if !ran {
        eprintln!("nvcc and clang not configured (source ~/.cache/pragma2cuda/env.sh): skipped");
    }
}
