//! OpenACC queues run asynchronously on the emulator (#21): a program that
//! reads a queue's results without the wait it needs gives a wrong result
//! there (`pragma2cuda verify` fails), and the same program with the wait
//! passes. Were the queues run in order with the host (as before #21), the
//! program without the wait would pass too. Needs gcc and g++.

use std::process::{Command, Output, Stdio};

fn program(wait: &str) -> String {
    format!(
        "#include <stdio.h>
#include <stdlib.h>

int main(void)
{{
    int n = 5000, bad = 0;
    int *a = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        a[i] = 0;
#pragma acc enter data copyin(a[0:n])
#pragma acc parallel loop present(a[0:n]) async(1)
    for (int i = 0; i < n; i++)
        a[i] = 2 * i + 1;
#pragma acc update self(a[0:n]) async(1)
{wait}
    for (int i = 0; i < n; i++)
        if (a[i] != 2 * i + 1)
            bad++;
    printf(\"%s\\n\", bad ? \"stale\" : \"ok\");
#pragma acc wait(1)
#pragma acc exit data delete(a[0:n])
    free(a);
    return 0;
}}
"
    )
}

fn verify(source: &str) -> Output {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("p.c"), source).unwrap();
    Command::new(env!("CARGO_BIN_EXE_pragma2cuda"))
        .args(["verify", "p.c", "--device", "emulate"])
        .current_dir(d.path())
        .stdin(Stdio::null())
        .output()
        .expect("run pragma2cuda verify")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn the_wait_makes_the_result_right() {
    let o = verify(&program("#pragma acc wait(1)"));
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).starts_with("PASS"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_missing_wait_reads_stale_data_on_the_emulator() {
    let o = verify(&program("    /* the wait is missing */"));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        !o.status.success() && out.starts_with("FAIL") && out.contains("emulator `stale`"),
        "{}",
        text(&o)
    );
}
