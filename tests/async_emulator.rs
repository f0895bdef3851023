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

/// `omp_target_memcpy_rect_async` (OpenMP 5.1; gcc 12 has no such routine,
/// so no reference run): a 2-D block to a device array and back to an
/// offset in a host array, on the emulator (#21). Before, the call went to
/// the host OpenMP library, which knows nothing of CUDA memory.
#[test]
fn target_memcpy_rect_async_copies_the_block() {
    use pragma2cuda::source::SourceFile;
    use pragma2cuda::tools::verify::{
        build_emulator, run_limited, BuildInputs, ExtraObjects, Sanitizer, Toolchain,
    };
    use std::time::Duration;
    let src = "#include <stdio.h>
#include <omp.h>

int main(void)
{
    int dev = omp_get_default_device(), host = omp_get_initial_device(), bad = 0;
    double a[4][6], b[5][5];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++)
            a[i][j] = 10 * i + j;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            b[i][j] = -1;
    double *d = (double *)omp_target_alloc(3 * 4 * sizeof(double), dev);
    size_t vol[2] = {2, 3}, zero[2] = {0, 0}, aoff[2] = {1, 2}, boff[2] = {3, 1};
    size_t adim[2] = {4, 6}, ddim[2] = {3, 4}, bdim[2] = {5, 5};
    bad += omp_target_memcpy_rect_async(d, a, sizeof(double), 2, vol, zero, aoff, ddim, adim, dev, host, 0, NULL) != 0;
#pragma omp taskwait
    bad += omp_target_memcpy_rect_async(b, d, sizeof(double), 2, vol, boff, zero, bdim, ddim, host, dev, 0, NULL) != 0;
#pragma omp taskwait
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) {
            int in = i >= 3 && i < 5 && j >= 1 && j < 4;
            bad += b[i][j] != (in ? a[1 + i - 3][2 + j - 1] : -1);
        }
    printf(\"%s\\n\", bad ? \"wrong\" : \"ok\");
    omp_target_free(d, dev);
    return bad != 0;
}
";
    let t = pragma2cuda::translate(
        &SourceFile::new("rect.c".to_string(), src.to_string()),
        &pragma2cuda::Options::default(),
    );
    assert!(!t.has_errors(), "translation failed");
    let d = tempfile::tempdir().unwrap();
    let cu = d.path().join("rect.cu");
    std::fs::write(&cu, t.output.unwrap()).unwrap();
    let bin = d.path().join("rect");
    let tc = Toolchain::from_env();
    build_emulator(
        &tc,
        &cu,
        &BuildInputs::default(),
        &ExtraObjects::default(),
        Sanitizer::None,
        &bin,
    )
    .expect("emulator build");
    let r = run_limited(&mut Command::new(&bin), Duration::from_secs(60)).unwrap();
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(
        r.code == Some(0) && out.starts_with("ok"),
        "{out}{}",
        String::from_utf8_lossy(&r.stderr)
    );
}
