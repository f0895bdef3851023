//! The source text as gcc reads it (#14): an unterminated comment is an
//! error, not a file whose tail is silently a comment; pragmas written with
//! comments in their prefix are directives. Runs the built binary.

use std::process::{Command, Output, Stdio};

fn translate(name: &str, text: &str) -> (Output, Option<String>) {
    let dir = std::env::temp_dir().join(format!("p2c-source-text-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join(format!("{name}.c"));
    let output = dir.join(format!("{name}.cu"));
    std::fs::write(&input, text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pragma2cuda"))
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .args(["--diagnostics-format", "gcc"])
        .stdin(Stdio::null())
        .output()
        .expect("run pragma2cuda");
    let cu = std::fs::read_to_string(&output).ok();
    let _ = std::fs::remove_dir_all(&dir);
    (o, cu)
}

#[test]
fn unterminated_comment_is_a_located_error() {
    // Before #14 this translated: the `*/` of the inserted `extern "C"`
    // comment closed the user's comment and revived the code in it.
    let text = "#include <stdio.h>\nint main(void) {\n  int a = 1;\n  /* disabled:\n  a = 2;\n  printf(\"%d\\n\", a);\n  return 0;\n}\n";
    let (o, cu) = translate("unterminated", text);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("unterminated.c:4:3: error: unterminated comment [E0320]"),
        "{err}"
    );
    assert!(cu.is_none(), "no output is written");
}

#[test]
fn comments_in_the_pragma_prefix_are_directives() {
    let text = "int main(void) {\n  static int a[8];\n  /* c */ #pragma acc parallel loop copy(a)\n  for (int i = 0; i < 8; i++) a[i] = i;\n  return a[7] != 7;\n}\n";
    let (o, cu) = translate("prefix", text);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let cu = cu.unwrap();
    assert!(
        cu.contains("runs as kernel main_L3()"),
        "the loop must be offloaded"
    );
    assert!(
        !cu.contains("\n  /* c */ #pragma acc"),
        "the pragma must not be passed through"
    );
}

#[test]
fn teams_in_a_target_block_leaves_no_pragma_in_the_kernel() {
    let text = "int main(void) {\n  int x = 0;\n#pragma omp target map(tofrom: x)\n  {\n#pragma omp teams num_teams(2)\n    {\n      x = 1;\n    }\n  }\n  return x != 1;\n}\n";
    let (o, cu) = translate("teams", text);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let cu = cu.unwrap();
    let kernel = &cu[cu.find("__global__").unwrap()..cu.find("int main").unwrap()];
    assert!(
        !kernel
            .lines()
            .any(|l| l.trim_start().starts_with("#pragma omp")),
        "{kernel}"
    );
}
