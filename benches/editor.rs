//! Editor latency (issue 15): a 10,000-line file with 1,000 offload regions
//! (ten-line functions, OpenMP and OpenACC in turn). Prints the time of
//! `lower_region_at` (the whole work per look-up), of building an
//! `EditorSession` (the first parse), of `EditorSession::region_at` at the
//! first, middle and last region, and of a one-line edit followed by a
//! look-up. Least thread CPU time of several runs.
//!   cargo bench --bench editor
use pragma2cuda::source::SourceFile;
use pragma2cuda::{lower_region_at, EditorSession};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn generate(regions: usize) -> String {
    let mut s = String::from("#include <stdio.h>\n#define N 1024\n");
    for k in 0..regions {
        if k % 2 == 0 {
            s.push_str(&format!(
                "void f{k}(double *a, const double *b, int n)\n{{\n    double s = {k}.0;\n#pragma omp target teams distribute parallel for map(to: b[0:n]) map(tofrom: a[0:n])\n    for (int i = 0; i < n; i++)\n        a[i] = s * b[i] + a[i];\n}}\n/* f{k} */\n\n\n"
            ));
        } else {
            s.push_str(&format!(
                "int f{k}(const int *v, int n)\n{{\n    int m = 0;\n#pragma acc parallel loop gang vector copyin(v[0:n]) reduction(max: m)\n    for (int i = 0; i < n; i++)\n        m = v[i] > m ? v[i] : m;\n    return m + {k};\n}}\n\n\n"
            ));
        }
    }
    s
}

fn least(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let text = generate(1000);
    let lines = text.lines().count();
    let pragmas: Vec<usize> = text.match_indices("#pragma").map(|(i, _)| i).collect();
    println!(
        "input: {lines} lines, {} regions, {} bytes",
        pragmas.len(),
        text.len()
    );
    let file = SourceFile::new("editor.c", text.clone());
    let at = [
        ("first", pragmas[0]),
        ("middle", pragmas[pragmas.len() / 2]),
        ("last", pragmas[pragmas.len() - 1]),
    ];
    for (name, off) in at {
        let d = least(3, || {
            black_box(lower_region_at(&file, off));
        });
        println!("lower_region_at, {name:6} region: {:9.2} ms", ms(d));
    }
    let mut session = None;
    let d = least(3, || session = Some(EditorSession::new(file.clone())));
    println!("EditorSession::new (first parse): {:9.2} ms", ms(d));
    let session = session.expect("built");
    for (name, off) in at {
        let d = least(20, || {
            black_box(session.region_at(off));
        });
        println!(
            "EditorSession::region_at, {name:6} region: {:9.4} ms",
            ms(d)
        );
    }
    let mut s = session;
    let mid = pragmas[pragmas.len() / 2];
    let line = text[mid..].find("a[i] = s").map(|i| i + mid).unwrap_or(mid);
    let d = least(3, || {
        s.edit(line, line + 1, "a");
        black_box(s.region_at(mid));
    });
    println!(
        "one-line edit + region_at (re-analyses the file): {:9.2} ms",
        ms(d)
    );
}
