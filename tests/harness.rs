//! The verification harness over `fixtures/in/*.c`: every fixture is
//! translated, its CUDA compiled by nvcc (sm_80, sm_90) and clang-19 (device and
//! host sides) with no error and no warning, run on the CPU SIMT emulator with
//! the same exit code and stdout as the gcc build of the original, and, for
//! reductions and `fixtures/tsan.list`, run under ThreadSanitizer cleanly.
//!
//! Nothing is skipped quietly: a missing toolchain fails with a message
//! (scripts/toolchain.sh installs it). ptxas figures go to
//! `target/p2c-report/ptxas.tsv`.

mod fixture_opts;

use pragma2cuda::source::SourceFile;
use pragma2cuda::tools::verify::{
    build_emulator, compare, compile_checks, compile_checks_with, run_limited, run_with,
    verify_translated, BuildInputs, Device, ExtraObjects, Judge, KernelStats, Limits, Outcome,
    Sanitizer, Tool, Toolchain, VerifyOptions,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

const WORKERS: usize = 2;
const RUN_LIMIT: Duration = Duration::from_secs(60);
const TSAN_LIMIT: Duration = Duration::from_secs(180);

/// Fixture runs are judged on CPU time (all threads together), never on the
/// wall clock alone: a correct fixture must not fail because the machine is
/// loaded (a 2-core CI machine running hundreds of emulator threads, or
/// other jobs beside the harness). The wall clock is only a backstop against
/// a program that sleeps for ever, generous enough for any load seen.
const WALL_BACKSTOP: u32 = 15;

/// Blocks the emulator runs at once for the fixtures whose races between
/// gangs/teams matter: the reduction fixtures and those of fixtures/tsan.list
/// (ThreadSanitizer sees races between blocks only when blocks overlap).
const CONCURRENT_BLOCKS: u32 = 2;

fn concurrent_blocks(file_name: &str) -> u32 {
    if file_name.contains("reduction") || tsan_wanted(file_name) {
        CONCURRENT_BLOCKS
    } else {
        0
    }
}

/// Fixtures whose C program itself races between gangs/teams (every gang
/// writes the same values to the same global in gang-redundant code, as the
/// program asks): with concurrent blocks ThreadSanitizer rightly reports it,
/// so their TSan run keeps blocks one after another. Their plain emulator run
/// still uses concurrent blocks. Each entry names the racing statement.
const RACY_BY_DESIGN: [(&str, &str); 1] = [(
    "acc_generic_gang.c",
    "`acc loop seq` in gang-redundant code: every gang writes small[q] = q * twice",
)];

fn tsan_blocks(file_name: &str) -> u32 {
    if RACY_BY_DESIGN.iter().any(|(n, _)| *n == file_name) {
        0
    } else {
        concurrent_blocks(file_name)
    }
}

fn cpu_limits(cpu: Duration) -> Limits {
    Limits {
        wall: cpu * WALL_BACKSTOP,
        cpu: Some(cpu),
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// target/ of this build: the test binary is target/<profile>/deps/harness-*.
fn target_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|e| e.ancestors().nth(3).map(Path::to_path_buf))
        .unwrap_or_else(|| repo().join("target"))
}

fn require(tc: &Toolchain, tools: &[Tool]) {
    let missing = tc.missing(tools);
    assert!(missing.is_empty(), "toolchain incomplete (run scripts/toolchain.sh, then source ~/.cache/pragma2cuda/env.sh):\n  {}", missing.join("\n  "));
}

#[test]
fn toolchain_is_complete() {
    let tc = Toolchain::from_env();
    require(&tc, &[Tool::Gcc, Tool::Gxx, Tool::Nvcc, Tool::Clang]);
    // ThreadSanitizer must link and run (libtsan present, address space usable).
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.cpp"), "#include <thread>\nint x; int main(){ std::thread a([]{ x = 1; }); a.join(); return x - 1; }\n").unwrap();
    let bin = d.path().join("t");
    let b = run_limited(
        Command::new(tc.gxx.as_ref().unwrap())
            .args(["-std=c++20", "-pthread", "-fsanitize=thread"])
            .arg(d.path().join("t.cpp"))
            .arg("-o")
            .arg(&bin),
        RUN_LIMIT,
    )
    .unwrap();
    assert!(b.success(), "g++ -fsanitize=thread failed:\n{}", b.text());
    let r = run_limited(&mut Command::new(&bin), RUN_LIMIT).unwrap();
    assert!(
        r.success(),
        "a race-free TSan program did not exit cleanly: {}\n{}",
        r.status_text(RUN_LIMIT),
        r.text()
    );
}

/// A plain CUDA program (no prelude, no emulator) through compile_checks: the
/// figures ptxas reports and the -Werror rule, before the translator exists.
#[test]
fn compile_checks_plumbing() {
    let tc = Toolchain::from_env();
    require(&tc, &[Tool::Nvcc, Tool::Clang]);
    let d = tempfile::tempdir().unwrap();
    let clean = d.path().join("clean.cu");
    std::fs::write(
        &clean,
        "#include <cuda_runtime.h>\n#include <cstdio>\n\
         extern \"C\" __global__ void rotate(int *a, int n) {\n\
           __shared__ int s[256];\n\
           int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
           s[threadIdx.x] = i < n ? a[i] : 0;\n\
           __syncthreads();\n\
           if (i < n) a[i] = s[(threadIdx.x + 1) % 256];\n\
         }\n\
         int main() {\n\
           int *d = nullptr;\n\
           if (cudaMalloc(&d, 256 * sizeof(int)) != cudaSuccess) return 1;\n\
           rotate<<<1, 256>>>(d, 256);\n\
           cudaDeviceSynchronize();\n\
           std::printf(\"%s\\n\", cudaGetErrorString(cudaGetLastError()));\n\
           return cudaFree(d) == cudaSuccess ? 0 : 1;\n\
         }\n",
    )
    .unwrap();
    let rep = compile_checks(&clean);
    assert!(
        rep.is_clean(),
        "errors: {:#?}\nwarnings: {:#?}",
        rep.errors,
        rep.warnings
    );
    let archs: Vec<&str> = rep.kernels.iter().map(|k| k.arch.as_str()).collect();
    assert_eq!(archs, vec!["sm_80", "sm_90"], "{:#?}", rep.kernels);
    for k in &rep.kernels {
        assert_eq!(k.kernel, "rotate");
        assert_eq!((k.barriers, k.shared_bytes), (1, 1024), "{k:?}");
        assert!(k.registers > 0, "{k:?}");
    }

    let warn = d.path().join("warn.cu");
    std::fs::write(&warn, "__global__ void k(int *a) { int unused; a[threadIdx.x] = 1; }\nint main() { int also_unused; return 0; }\n").unwrap();
    let rep = compile_checks_with(&warn, &tc, &[]);
    assert!(rep.errors.is_empty(), "{:#?}", rep.errors);
    for who in ["nvcc:", "clang device:", "clang host:"] {
        assert!(
            rep.warnings
                .iter()
                .any(|w| w.starts_with(who) && w.contains("unused")),
            "no {who} warning in {:#?}",
            rep.warnings
        );
    }

    let broken = d.path().join("broken.cu");
    std::fs::write(&broken, "__global__ void k() { undeclared(); }\n").unwrap();
    let rep = compile_checks_with(&broken, &tc, &[]);
    assert_eq!(
        rep.errors.len(),
        3,
        "nvcc, clang device and clang host must all fail: {:#?}",
        rep.errors
    );
}

/// The fixtures, sorted; an empty directory is fine, a missing one is not.
fn fixtures() -> Vec<PathBuf> {
    let dir = repo().join("fixtures/in");
    let rd = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("fixture directory {} is missing: {e}", dir.display()));
    let mut v: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter(|p| selected(p))
        .collect();
    v.sort();
    v
}

/// `P2C_FIXTURES=name,name` narrows a local run to some fixtures (substring
/// match); unset, every fixture runs. CI never sets it.
fn selected(p: &Path) -> bool {
    let Ok(only) = std::env::var("P2C_FIXTURES") else {
        return true;
    };
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    only.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .any(|s| name.contains(s))
}

/// The fixtures of `fixtures/strategies.list` with the reduction strategies
/// listed for each (`name strategy...`), honouring `P2C_FIXTURES`.
fn strategy_runs() -> Vec<(PathBuf, pragma2cuda::Options)> {
    let listed = std::fs::read_to_string(repo().join("fixtures/strategies.list"))
        .expect("fixtures/strategies.list");
    let mut v = Vec::new();
    for line in listed.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else { continue };
        let path = repo().join("fixtures/in").join(format!("{name}.c"));
        assert!(
            path.exists(),
            "fixtures/strategies.list: {name}.c does not exist"
        );
        if !selected(&path) {
            continue;
        }
        for s in words {
            let strategy = pragma2cuda::ir::reduction::Strategy::parse(s)
                .unwrap_or_else(|| panic!("fixtures/strategies.list: unknown strategy `{s}`"));
            let base = fixture_opts::options(&path, pragma2cuda::Emit::Cuda)
                .unwrap_or_else(|e| panic!("{e}"));
            v.push((
                path.clone(),
                pragma2cuda::Options {
                    reduction_strategy: strategy,
                    ..base
                },
            ));
        }
    }
    v
}

/// Fixtures run under TSan: those listed in fixtures/tsan.list (small ones:
/// TSan slows the one-thread-per-CUDA-thread emulator by an order of magnitude).
fn tsan_wanted(name: &str) -> bool {
    let listed = std::fs::read_to_string(repo().join("fixtures/tsan.list")).unwrap_or_default();
    listed
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .any(|l| {
            !l.is_empty() && (l == name || l.trim_end_matches(".c") == name.trim_end_matches(".c"))
        })
}

struct FixtureResult {
    name: String,
    failures: Vec<String>,
    kernels: Vec<KernelStats>,
    stages: Vec<&'static str>,
}

/// One fixture translated with `opts` (the TSan run too when the fixture is
/// listed for it). Reduction fixtures must compile with no spills.
fn check_fixture_with(path: &Path, tc: &Toolchain, opts: &pragma2cuda::Options) -> FixtureResult {
    let file_name = path.file_name().unwrap().to_string_lossy().into_owned();
    let name = if opts.reduction_strategy == Default::default() {
        file_name.clone()
    } else {
        format!(
            "{file_name} [--reduction-strategy={}]",
            opts.reduction_strategy.as_str()
        )
    };
    let mut res = FixtureResult {
        name: name.clone(),
        failures: Vec::new(),
        kernels: Vec::new(),
        stages: Vec::new(),
    };
    let mut fail = |stage: &str, msg: String| res.failures.push(format!("[{stage}] {msg}"));

    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            fail("read", e.to_string());
            return res;
        }
    };
    let file = SourceFile::new(path.display().to_string(), text);
    let t = pragma2cuda::translate(&file, opts);
    let out = match (&t.output, t.has_errors()) {
        (Some(o), false) => o.clone(),
        _ => {
            let diags = pragma2cuda::diag::render(
                &file,
                &t.diagnostics,
                pragma2cuda::diag::Format::Gcc,
                false,
            );
            fail("translate", format!("no output\n{diags}"));
            return res;
        }
    };
    res.stages.push("translate");
    if pragma2cuda::translate(&file, opts).output.as_deref() != Some(out.as_str()) {
        fail(
            "deterministic",
            "a second translation differs from the first".into(),
        );
    }

    let work = tempfile::Builder::new()
        .prefix("p2c-harness.")
        .tempdir()
        .unwrap();
    let cu = work.path().join(file_name.replace(".c", ".cu"));
    std::fs::write(&cu, &out).unwrap();

    let rep = compile_checks_with(&cu, tc, &[]);
    res.kernels = rep.kernels.clone();
    for e in &rep.errors {
        fail("compile", e.clone());
    }
    for w in &rep.warnings {
        fail("warning", w.clone());
    }
    if file_name.contains("reduc") {
        for k in rep
            .kernels
            .iter()
            .filter(|k| k.spill_stores + k.spill_loads > 0)
        {
            fail(
                "spill",
                format!(
                    "{} on {}: {} bytes spill stores, {} bytes spill loads",
                    k.kernel, k.arch, k.spill_stores, k.spill_loads
                ),
            );
        }
    }
    if rep.is_clean() {
        res.stages.push("compile");
    }

    let vopts = VerifyOptions {
        device: Device::Emulate,
        timeout: cpu_limits(RUN_LIMIT).wall,
        cpu_limit: Some(RUN_LIMIT),
        run_env: Vec::new(),
        inputs: BuildInputs {
            // A fixture gcc's host OpenACC cannot compile says so in a line
            // `p2c-reference: sequential` (see fixtures/README.md).
            sequential_reference: std::fs::read_to_string(path)
                .is_ok_and(|t| pragma2cuda::tools::verify::wants_sequential_reference(&t)),
            concurrent_blocks: concurrent_blocks(&file_name),
            ..Default::default()
        },
        judge: Judge::Reference,
        preprocess: false,
    };
    let emu_dir = work.path().join("emu");
    std::fs::create_dir(&emu_dir).unwrap();
    let v = verify_translated(path, &cu, &vopts, tc, &emu_dir);
    if v.outcome == Outcome::Pass {
        res.stages.push("emulate");
    } else {
        fail("emulate", format!("{}\n{}", v.summary, v.log.join("\n")));
    }

    if tsan_wanted(&file_name) {
        let bin = work.path().join("tsan");
        let inputs = BuildInputs {
            include_dirs: path
                .parent()
                .map(|p| vec![p.to_path_buf()])
                .unwrap_or_default(),
            concurrent_blocks: tsan_blocks(&file_name),
            ..Default::default()
        };
        match build_emulator(
            tc,
            &cu,
            &inputs,
            &ExtraObjects::default(),
            Sanitizer::Thread,
            &bin,
        ) {
            Err(e) => fail("tsan", format!("build failed:\n{e}")),
            Ok(()) => {
                let mut cmd = Command::new(&bin);
                cmd.current_dir(work.path())
                    .env("TSAN_OPTIONS", "exitcode=66 halt_on_error=0")
                    // TSan slows the emulator about tenfold: scale its 10 s
                    // deadlock detector, or a loaded machine trips it.
                    .env("P2C_SIM_DEADLOCK_SECONDS", "60");
                match run_with(&mut cmd, cpu_limits(TSAN_LIMIT)) {
                    Err(e) => fail("tsan", format!("cannot run: {e}")),
                    Ok(r) => {
                        let stderr = String::from_utf8_lossy(&r.stderr);
                        if r.code == Some(66)
                            || stderr.contains("WARNING: ThreadSanitizer")
                            || r.timed_out
                            || r.signal.is_some()
                        {
                            let first: String =
                                stderr.lines().take(40).collect::<Vec<_>>().join("\n");
                            fail("tsan", format!("{}\n{first}", r.status_text(TSAN_LIMIT)));
                        } else {
                            res.stages.push("tsan");
                        }
                        // The sanitized program must still compute what the emulator build did.
                        let plain = run_with(
                            Command::new(emu_dir.join("emulator")).current_dir(work.path()),
                            cpu_limits(RUN_LIMIT),
                        );
                        if let Ok(plain) = plain {
                            if let Some(d) =
                                compare(&plain, &r, "tsan", RUN_LIMIT).filter(|_| !r.timed_out)
                            {
                                fail(
                                    "tsan",
                                    format!("differs from the plain emulator build: {d}"),
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    res
}

/// `default`: the default-strategy run (ptxas.tsv); else ptxas-strategies.tsv.
fn write_ptxas_report(results: &[FixtureResult], default: bool) -> String {
    let mut tsv = String::from("fixture\tkernel\tarch\tregisters\tbarriers\tshared_bytes\tspill_stores\tspill_loads\tstack_frame\n");
    for r in results {
        for k in &r.kernels {
            tsv.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                r.name,
                k.kernel,
                k.arch,
                k.registers,
                k.barriers,
                k.shared_bytes,
                k.spill_stores,
                k.spill_loads,
                k.stack_frame
            ));
        }
    }
    let dir = target_dir().join("p2c-report");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(if default {
        "ptxas.tsv"
    } else {
        "ptxas-strategies.tsv"
    });
    if let Err(e) = std::fs::write(&path, &tsv) {
        eprintln!("cannot write {}: {e}", path.display());
    }
    // A compact table: one line per fixture and kernel, sm_80 / sm_90 side by side.
    let mut table = format!(
        "{:<40} {:<32} {:>9} {:>5} {:>7} {:>9} {:>7}\n",
        "fixture", "kernel", "regs", "bar", "smem", "spill", "stack"
    );
    for r in results {
        let mut names: Vec<&str> = r.kernels.iter().map(|k| k.kernel.as_str()).collect();
        names.dedup();
        for n in names {
            let per: Vec<&KernelStats> = r.kernels.iter().filter(|k| k.kernel == n).collect();
            let regs: Vec<String> = per.iter().map(|k| k.registers.to_string()).collect();
            let k = per[0];
            table.push_str(&format!(
                "{:<40} {:<32} {:>9} {:>5} {:>7} {:>9} {:>7}\n",
                r.name,
                n,
                regs.join("/"),
                k.barriers,
                k.shared_bytes,
                format!("{}/{}", k.spill_stores, k.spill_loads),
                k.stack_frame
            ));
        }
    }
    table
}

/// Seed 002's Tables 2 and 3 (total static shared memory per team, bytes,
/// K40/P100) beside what ptxas reports for the same programs translated by
/// pragma2cuda (fixtures omp_generic_fig5_s* and omp_generic_fig6_a*): the
/// variables' own bytes plus the 4-byte fork word, with no list of
/// references, no mirrored stack and no runtime state. Returns the table
/// and the fixtures whose figure is not exactly that.
fn paper_table(results: &[FixtureResult]) -> (String, Vec<String>) {
    const SCALARS: [(u64, u64); 7] = [
        (1, 233),
        (2, 241),
        (4, 257),
        (8, 289),
        (16, 353),
        (32, 481),
        (64, 737),
    ];
    const ARRAYS: [(u64, u64); 4] = [(1, 617), (2, 1001), (3, 1385), (4, 1769)];
    const FORK_WORD: u64 = 4;
    let mut table = format!(
        "{:<28} {:>10} {:>12} {:>14} {:>10}\n",
        "shared memory per team", "variables", "paper (B)", "pragma2cuda (B)", "own bytes"
    );
    let mut tsv = String::from("program\tcount\tpaper_bytes\tptxas_smem_sm80\tvariable_bytes\n");
    let mut bad = Vec::new();
    let rows = SCALARS
        .iter()
        .map(|(n, p)| {
            (
                format!("omp_generic_fig5_s{n}.c"),
                "Figure 5 (int scalars)",
                *n,
                *p,
                4 * n,
            )
        })
        .chain(ARRAYS.iter().map(|(n, p)| {
            (
                format!("omp_generic_fig6_a{n}.c"),
                "Figure 6 (int[96] arrays)",
                *n,
                *p,
                384 * n,
            )
        }));
    for (name, what, n, paper, own) in rows {
        let Some(r) = results.iter().find(|r| r.name == name) else {
            continue;
        };
        let smem = r
            .kernels
            .iter()
            .find(|k| k.arch == "sm_80")
            .map(|k| k.shared_bytes);
        let shown = smem.map(|b| b.to_string()).unwrap_or_else(|| "-".into());
        table.push_str(&format!(
            "{what:<28} {n:>10} {paper:>12} {shown:>14} {own:>10}\n"
        ));
        tsv.push_str(&format!("{name}\t{n}\t{paper}\t{shown}\t{own}\n"));
        if let Some(b) = smem {
            if b != own + FORK_WORD {
                bad.push(format!(
                    "{name}: ptxas reports {b} B of shared memory, expected {} (the variables' {own} B and the {FORK_WORD}-byte fork word)",
                    own + FORK_WORD
                ));
            }
        }
    }
    let dir = target_dir().join("p2c-report");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("paper_tables.tsv"), tsv);
    (table, bad)
}

/// target/p2c-report/fixtures.tsv: fixture, PASS/FAIL, stages passed, first failure.
fn write_fixture_report(results: &[FixtureResult], default: bool) {
    let mut tsv = String::from("fixture\tresult\tstages\tfirst_failure\n");
    for r in results {
        let first = r
            .failures
            .first()
            .map(|f| f.lines().next().unwrap_or("").replace('\t', " "))
            .unwrap_or_default();
        let verdict = if r.failures.is_empty() {
            "PASS"
        } else {
            "FAIL"
        };
        tsv.push_str(&format!(
            "{}\t{verdict}\t{}\t{first}\n",
            r.name,
            r.stages.join(" ")
        ));
    }
    let dir = target_dir().join("p2c-report");
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join(if default {
        "fixtures.tsv"
    } else {
        "fixtures-strategies.tsv"
    });
    if let Err(e) = std::fs::write(&file, tsv) {
        eprintln!("cannot write {}: {e}", file.display());
    }
}

#[test]
fn fixtures_pass_every_stage() {
    let runs: Vec<(PathBuf, pragma2cuda::Options)> = fixtures()
        .into_iter()
        .map(|p| {
            let o = fixture_opts::options(&p, pragma2cuda::Emit::Cuda)
                .unwrap_or_else(|e| panic!("{e}"));
            (p, o)
        })
        .collect();
    run_all(runs, true);
}

/// The reduction fixtures of `fixtures/strategies.list` with
/// `--reduction-strategy=lock` and `=atomic`: the same checks (TSan for those
/// in `fixtures/tsan.list`).
#[test]
fn fixtures_pass_with_reduction_strategies() {
    run_all(strategy_runs(), false);
}

/// `default`: the default-strategy run (its reports are ptxas.tsv and
/// fixtures.tsv; the strategies run writes *-strategies.tsv).
fn run_all(list: Vec<(PathBuf, pragma2cuda::Options)>, default: bool) {
    let tc = Toolchain::from_env();
    if !list.is_empty() {
        require(
            &tc,
            &[
                Tool::Gcc,
                Tool::Gxx,
                Tool::Nvcc,
                Tool::Clang,
                Tool::Emulator,
            ],
        );
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<FixtureResult>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..WORKERS {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((p, opts)) = list.get(i) else { break };
                let r = check_fixture_with(p, &tc, opts);
                results.lock().unwrap_or_else(|e| e.into_inner()).push(r);
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by(|a, b| a.name.cmp(&b.name));
    let table = write_ptxas_report(&results, default);
    write_fixture_report(&results, default);
    println!("{table}");
    let (paper, paper_bad) = paper_table(&results);
    if paper.lines().count() > 1 {
        println!("Seed 002, Tables 2 and 3: static shared memory per team\n{paper}");
    }
    for b in &paper_bad {
        if let Some(r) = results.iter_mut().find(|r| b.starts_with(&r.name)) {
            r.failures.push(format!("[shared bytes] {b}"));
        }
    }
    let failed: Vec<&FixtureResult> = results.iter().filter(|r| !r.failures.is_empty()).collect();
    for r in &results {
        println!(
            "{:<6} {} ({})",
            if r.failures.is_empty() {
                "PASS"
            } else {
                "FAIL"
            },
            r.name,
            r.stages.join(" ")
        );
    }
    println!(
        "harness: {} passed, {} failed",
        results.len() - failed.len(),
        failed.len()
    );
    if !failed.is_empty() {
        let mut msg = format!("{} of {} fixtures failed:\n", failed.len(), results.len());
        for r in failed {
            msg.push_str(&format!("--- {}\n", r.name));
            for f in &r.failures {
                msg.push_str(&format!("  {}\n", f.replace('\n', "\n    ")));
            }
        }
        panic!("{msg}");
    }
}
