//! Front-end speed: what the directive front end (finding pragmas and pragma
//! macros, parsing every directive, masking, attaching, validating, and
//! whatever `translate --emit=directives` does beyond that) adds to the
//! tree-sitter parse of a large C file. The target (issue 4) is under 5 %.
//!
//! The input is generated, deterministically: about 10 MB of C in blocks of
//! 50 lines, one OpenMP or OpenACC pragma per block (varied clauses, some
//! with continuation lines or comments), the rest ordinary code.
//!
//! ```text
//! cargo bench --bench front_end                    # time every stage, print the ratios
//! cargo bench --bench front_end -- --write big.c   # write the generated file and stop
//! cargo bench --bench front_end -- --input big.c --only STAGE
//! ```
//!
//! `--only STAGE` runs one stage once and prints nothing else, for
//! instruction counts that do not depend on the machine's load
//! (`valgrind --tool=cachegrind --cache-sim=no BENCH --input big.c --only parse`).
//! Each stage includes the ones before it, so differences isolate one step:
//! `none` (read the input), `parse` (tree-sitter on the text), `directives`
//! (find pragmas and macros, parse every directive, mask), `parse-masked`
//! (`directives`, then tree-sitter on the masked text), `front`
//! (`parse-masked`, then attach), `validate` (`front`, then every validation
//! rule, `valid::validate`), `render` (`validate`, then the text of
//! `--emit=directives`), `translate` (`translate --emit=directives`).
//! `scripts/bench-front-end.sh` runs them all and prints the ratios;
//! BENCHMARKS.md has the figures.

use pragma2cuda::directives::{parse_pragma, Directive};
use pragma2cuda::front::{attach, parse_c};
use pragma2cuda::source::{macros, mask, SourceFile};
use pragma2cuda::valid::validate;
use pragma2cuda::{translate, Emit, Options};
use std::hint::black_box;
use std::time::Duration;
#[cfg(not(target_os = "linux"))]
use std::time::Instant;

/// xorshift64*: a tiny deterministic generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 32) % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const OMP: &[&str] = &[
    "#pragma omp target teams distribute parallel for map(to: b[0:n]) map(tofrom: a[0:n]) reduction(+: t)",
    "#pragma omp target teams distribute parallel for simd map(tofrom: a[0:n]) map(to: b[0:n], c[0:n]) num_teams(64) thread_limit(128)",
    "#pragma omp target parallel for map(tofrom: a[0:n]) map(to: b[0:n]) if(target: n > 1000) \\\n        firstprivate(s) private(u)",
    "#pragma omp parallel for schedule(dynamic, 16) reduction(max: t) default(shared)",
    "#pragma omp target teams distribute map(always, tofrom: a[0:n]) /* one thread per team */ dist_schedule(static, 4)",
    "#pragma omp parallel for simd aligned(a, b: 64) linear(u: 1) collapse(1) nowait",
];
const ACC: &[&str] = &[
    "#pragma acc parallel loop gang vector copyin(b[0:n]) copy(a[0:n]) reduction(+: t)",
    "#pragma acc parallel loop gang(num: 64) worker(num: 4) vector(length: 32) present(a[0:n], b[0:n])",
    "#pragma acc kernels loop independent copyin(readonly: b[0:n], c[0:n]) copyout(a[0:n]) \\\n        async(1) wait(2)",
    "#pragma acc serial loop seq private(u) firstprivate(s) copy(a[0:n])",
    "#pragma acc parallel loop num_gangs(128) vector_length(128) tile(4) device_type(nvidia) copy(a[0:n])",
];

/// About `bytes` of C, one pragma per 50 lines.
fn generate(bytes: usize) -> String {
    let mut r = Rng(0x005E_ED0F_F1E5);
    let mut s = String::with_capacity(bytes + 4096);
    s.push_str("#include <stdio.h>\n#include <stdlib.h>\n\n");
    let mut k = 0usize;
    while s.len() < bytes {
        // 50 lines per block.
        let pragma = if r.below(2) == 0 {
            r.pick(OMP)
        } else {
            r.pick(ACC)
        };
        let pragma_lines = 1 + pragma.matches('\n').count();
        s.push_str(&format!("/* block {k}: a loop and some ordinary code */\n"));
        s.push_str(&format!(
            "static double f{k}(int n, double *restrict a, const double *restrict b, const double *restrict c, double s)\n{{\n"
        ));
        s.push_str("    double t = 0.0, u = 1.0;\n    int m = n / 2 + 1;\n");
        s.push_str(pragma);
        s.push('\n');
        s.push_str("    for (int i = 0; i < n; i++) {\n        u = b[i] * s + c[i % m];\n        a[i] = a[i] * s + u;\n        t += a[i];\n    }\n");
        let mut lines = 5 + pragma_lines + 5;
        while lines < 47 {
            match r.below(5) {
                0 => {
                    s.push_str(&format!(
                        "    if (t > {}.0 && m != {}) {{\n        t = t / 2.0 - (double)m;\n    }}\n",
                        r.below(1000),
                        r.below(50)
                    ));
                    lines += 3;
                }
                1 => {
                    s.push_str(&format!(
                        "    for (int j = 0; j < m; j += {}) // a host loop\n        t += c[j] * (double)j;\n",
                        1 + r.below(4)
                    ));
                    lines += 2;
                }
                2 => {
                    s.push_str(&format!(
                        "    u = u * {}.5 + s * (t - {}.25); /* plain arithmetic */\n",
                        r.below(9),
                        r.below(99)
                    ));
                    lines += 1;
                }
                3 => {
                    s.push_str("    while (m > 1 && u < t) {\n        m = m / 2;\n        u += (double)m;\n    }\n");
                    lines += 4;
                }
                _ => {
                    s.push_str(&format!("    printf(\"block %d: %g %g\\n\", {k}, t, u);\n"));
                    lines += 1;
                }
            }
        }
        while lines < 48 {
            s.push_str("    t += u;\n");
            lines += 1;
        }
        s.push_str("    return t + u;\n}\n");
        k += 1;
    }
    s
}

/// Everything the directive front end does before the tree-sitter parse.
struct Front {
    directives: Vec<Directive>,
    /// Per directive: whether its pragma had a syntax error (validation
    /// needs it, as in the driver).
    malformed: Vec<bool>,
    masked: String,
}

fn scan_and_parse(text: &str) -> Front {
    let found = macros::find_all(text);
    let mut directives = Vec::with_capacity(found.pragmas.len());
    let mut malformed = Vec::with_capacity(found.pragmas.len());
    let spans = found.pragmas.iter().map(|p| p.span);
    for span in spans.chain(found.from_macros.iter().map(|m| m.text)) {
        let (d, ds) = parse_pragma(text, span);
        if let Some(d) = d {
            directives.push(d);
            malformed.push(ds.iter().any(|d| d.is_error()));
        }
    }
    let masked = mask::mask_spans(text, &found.masked_spans());
    Front {
        directives,
        malformed,
        masked,
    }
}

/// CPU time of this thread: on a shared machine, wall time counts the time
/// other processes held the core; this does not.
#[cfg(target_os = "linux")]
fn cpu_now() -> Duration {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one Timespec, which `t` is.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

#[cfg(not(target_os = "linux"))]
fn cpu_now() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// The least CPU time of `runs` runs of `f`.
fn min_time(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = cpu_now();
            f();
            cpu_now().saturating_sub(t)
        })
        .min()
        .unwrap_or_default()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let text = match opt("--input") {
        Some(p) => std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}")),
        None => generate(10 * 1024 * 1024),
    };
    if let Some(p) = opt("--write") {
        std::fs::write(&p, &text).unwrap_or_else(|e| panic!("{p}: {e}"));
        return;
    }
    let file = SourceFile::new("big.c", text.clone());
    if let Some(stage) = opt("--only") {
        match stage.as_str() {
            "none" => {}
            "parse" => {
                black_box(parse_c(text.clone()));
            }
            "directives" => {
                black_box(scan_and_parse(&text));
            }
            "parse-masked" => {
                let f = scan_and_parse(&text);
                black_box(parse_c(f.masked));
                black_box(f.directives);
            }
            "front" => {
                let f = scan_and_parse(&text);
                let tree = parse_c(f.masked);
                black_box(attach(&tree, f.directives));
            }
            "validate" => {
                let f = scan_and_parse(&text);
                let tree = parse_c(f.masked);
                let attached = attach(&tree, f.directives);
                black_box(validate(&file, &tree, &attached, &f.malformed));
                black_box(attached);
            }
            "render" => {
                let f = scan_and_parse(&text);
                let tree = parse_c(f.masked);
                let attached = attach(&tree, f.directives);
                black_box(validate(&file, &tree, &attached, &f.malformed));
                black_box(pragma2cuda::directives::render_text(
                    &file,
                    attached.iter().map(|a| &a.directive),
                ));
            }
            "translate" => {
                black_box(translate(
                    &file,
                    &Options {
                        emit: Emit::Directives,
                        ..Default::default()
                    },
                ));
            }
            other => panic!("unknown stage {other}"),
        }
        return;
    }
    let runs: usize = opt("--runs").and_then(|r| r.parse().ok()).unwrap_or(5);
    let lines = text.lines().count();
    let pragmas = scan_and_parse(&text).directives.len();
    println!(
        "input: {:.1} MB, {lines} lines, {pragmas} directives (one per {} lines); least thread CPU time of {runs} runs",
        text.len() as f64 / 1048576.0,
        lines / pragmas.max(1)
    );
    let parse = min_time(runs, || {
        black_box(parse_c(text.clone()));
    });
    let scan = min_time(runs, || {
        black_box(macros::find_all(&text));
    });
    let found = macros::find_all(&text);
    let directives = min_time(runs, || {
        for p in &found.pragmas {
            black_box(parse_pragma(&text, p.span));
        }
    });
    let masking = min_time(runs, || {
        black_box(mask::mask_spans(&text, &found.masked_spans()));
    });
    let f = scan_and_parse(&text);
    let parse_masked = min_time(runs, || {
        black_box(parse_c(f.masked.clone()));
    });
    let tree = parse_c(f.masked.clone());
    // attach consumes its directives: copy them before the clock starts, and
    // drop the result after it stops.
    let attaching = (0..runs)
        .map(|_| {
            let dirs = f.directives.clone();
            let t = cpu_now();
            let out = black_box(attach(&tree, dirs));
            let d = cpu_now().saturating_sub(t);
            drop(out);
            d
        })
        .min()
        .unwrap_or_default();
    let attached = attach(&tree, f.directives.clone());
    let validating = min_time(runs, || {
        black_box(validate(&file, &tree, &attached, &f.malformed));
    });
    let pipeline = min_time(runs, || {
        let f = scan_and_parse(&text);
        let tree = parse_c(f.masked);
        let attached = attach(&tree, f.directives);
        black_box(validate(&file, &tree, &attached, &f.malformed));
    });
    let render = min_time(runs, || {
        black_box(pragma2cuda::directives::render_text(&file, &f.directives));
    });
    let whole = min_time(runs, || {
        black_box(translate(
            &file,
            &Options {
                emit: Emit::Directives,
                ..Default::default()
            },
        ));
    });
    let front = scan + directives + masking + attaching + validating;
    let pct = |d: Duration| 100.0 * d.as_secs_f64() / parse.as_secs_f64();
    println!("tree-sitter parse            {:9.1} ms  100.0 %", ms(parse));
    println!(
        "tree-sitter parse, masked    {:9.1} ms  {:5.2} %",
        ms(parse_masked),
        pct(parse_masked)
    );
    println!(
        "find pragmas and macros      {:9.1} ms  {:5.2} %",
        ms(scan),
        pct(scan)
    );
    println!(
        "parse every directive        {:9.1} ms  {:5.2} %",
        ms(directives),
        pct(directives)
    );
    println!(
        "mask                         {:9.1} ms  {:5.2} %",
        ms(masking),
        pct(masking)
    );
    println!(
        "attach                       {:9.1} ms  {:5.2} %",
        ms(attaching),
        pct(attaching)
    );
    println!(
        "validate                     {:9.1} ms  {:5.2} %",
        ms(validating),
        pct(validating)
    );
    println!(
        "directive front end (sum)    {:9.1} ms  {:5.2} %",
        ms(front),
        pct(front)
    );
    println!(
        "scan, parse, mask, tree-sitter, attach, validate in one go {:9.1} ms  {:5.2} %",
        ms(pipeline),
        pct(pipeline)
    );
    println!(
        "render --emit=directives     {:9.1} ms  {:5.2} %",
        ms(render),
        pct(render)
    );
    println!(
        "translate --emit=directives  {:9.1} ms  {:5.2} % (tree-sitter included; beyond it: {:.2} %)",
        ms(whole),
        pct(whole),
        pct(whole) - 100.0
    );
}
