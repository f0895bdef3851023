//! The emulator part of the harness (tests/harness.rs), old execution model
//! against the new, side by side in one run (issue 20). For every fixture
//! (and every run of fixtures/strategies.list), as the harness does it: the
//! translation, then the emulator build and run, and for fixtures/tsan.list
//! the ThreadSanitizer build and run and the plain binary's second run.
//! Old: one OS thread per CUDA thread (`-DP2C_SIM_FIBERS=0`) and no
//! precompiled header (`P2C_EMU_PCH=0`). New: fibers and the precompiled
//! headers, cached in a fresh directory (their builds are counted).
//! TSan builds use OS threads on both sides (the default under TSan).
//! Not measured: translation, the gcc reference, nvcc and clang.
//! Figures: CPU time (user + system) of the child processes, getrusage
//! RUSAGE_CHILDREN before and after each step; old and new alternate per
//! fixture (old first on even rows). The two sides' outputs are compared.
//! P2C_BENCH_SHARD=k/n and P2C_BENCH_PCH=DIR (fresh, shared) split the rows
//! between n processes.
//!   cargo bench --bench emu_harness            (P2C_FIXTURES=a,b narrows)
#[path = "../tests/fixture_opts/mod.rs"]
mod fixture_opts;

use pragma2cuda::source::SourceFile;
use pragma2cuda::tools::verify::{
    build_emulator, run_with, BuildInputs, ExtraObjects, Limits, RunOutput, Sanitizer, Toolchain,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const RUN_CPU: Duration = Duration::from_secs(60);
const TSAN_CPU: Duration = Duration::from_secs(180);

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn children_cpu() -> f64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    t(u.ru_utime) + t(u.ru_stime)
}

/// CPU seconds of the children `f` runs, with its result.
fn cpu_of<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let before = children_cpu();
    let r = f();
    (children_cpu() - before, r)
}

fn listed(file: &str) -> Vec<String> {
    std::fs::read_to_string(repo().join("fixtures").join(file))
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn selected(name: &str) -> bool {
    match std::env::var("P2C_FIXTURES") {
        Err(_) => true,
        Ok(only) => only
            .split(',')
            .map(str::trim)
            .any(|s| !s.is_empty() && name.contains(s)),
    }
}

/// (fixture path, options, row name): every fixture, then the strategy runs.
fn runs() -> Vec<(PathBuf, pragma2cuda::Options, String)> {
    let dir = repo().join("fixtures/in");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/in")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    paths.sort();
    let opts = |p: &Path| {
        fixture_opts::options(p, pragma2cuda::Emit::Cuda).unwrap_or_else(|e| panic!("{e}"))
    };
    let mut v: Vec<_> = paths
        .into_iter()
        .map(|p| {
            let n = p.file_stem().unwrap().to_string_lossy().into_owned();
            (p.clone(), opts(&p), n)
        })
        .collect();
    for line in listed("strategies.list") {
        let mut w = line.split_whitespace();
        let Some(name) = w.next() else { continue };
        let p = dir.join(format!("{name}.c"));
        for s in w {
            let strategy = pragma2cuda::ir::reduction::Strategy::parse(s).expect("strategy");
            let o = pragma2cuda::Options {
                reduction_strategy: strategy,
                ..opts(&p)
            };
            v.push((p.clone(), o, format!("{name} [{s}]")));
        }
    }
    v.retain(|(_, _, n)| selected(n));
    // P2C_BENCH_SHARD=k/n: every n-th row from row k (n processes in parallel, as the
    // harness's workers; give them one P2C_BENCH_PCH directory).
    if let Some((k, n)) = std::env::var("P2C_BENCH_SHARD").ok().and_then(|s| {
        let (k, n) = s.split_once('/')?;
        Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?))
    }) {
        v = v.into_iter().skip(k).step_by(n.max(1)).collect();
    }
    v
}

/// One side's figures for one fixture.
#[derive(Default)]
struct Side {
    build: f64,
    run: f64,
    tsan: f64,
    outputs: Vec<(Option<i32>, Vec<u8>)>,
    failed: Vec<String>,
}

struct Fixture<'a> {
    cu: &'a Path,
    /// The C file's directory (fixtures/in): include directory of every build, as in the harness.
    src_dir: &'a Path,
    dir: &'a Path,
    blocks: u32,
    tsan_blocks: Option<u32>,
}

fn run_bin(bin: &Path, dir: &Path, cpu: Duration, tsan: bool) -> Result<RunOutput, String> {
    let mut cmd = Command::new(bin);
    cmd.current_dir(dir);
    if tsan {
        cmd.env("TSAN_OPTIONS", "exitcode=66 halt_on_error=0")
            .env("P2C_SIM_DEADLOCK_SECONDS", "60");
    }
    let limits = Limits {
        wall: cpu * 15,
        cpu: Some(cpu),
    };
    run_with(&mut cmd, limits).map_err(|e| e.to_string())
}

fn side(tc: &Toolchain, f: &Fixture, old: bool) -> Side {
    let mut s = Side::default();
    if old {
        std::env::set_var("P2C_EMU_PCH", "0");
    } else {
        std::env::remove_var("P2C_EMU_PCH");
    }
    let tag = if old { "old" } else { "new" };
    let inputs = |blocks| BuildInputs {
        flags: if old {
            vec!["-DP2C_SIM_FIBERS=0".into()]
        } else {
            vec![]
        },
        include_dirs: vec![f.src_dir.to_path_buf()],
        concurrent_blocks: blocks,
        ..Default::default()
    };
    let bin = f.dir.join(format!("emu-{tag}"));
    let none = ExtraObjects::default();
    let (c, b) =
        cpu_of(|| build_emulator(tc, f.cu, &inputs(f.blocks), &none, Sanitizer::None, &bin));
    s.build += c;
    if b.is_err() {
        s.failed.push("build".into());
        return s;
    }
    let plain = |s: &mut Side| {
        let (c, r) = cpu_of(|| run_bin(&bin, f.dir, RUN_CPU, false));
        s.run += c;
        match r {
            Ok(r) => {
                if !r.success() {
                    s.failed.push(format!("run: {}", r.status_text(RUN_CPU)));
                }
                s.outputs.push((r.code, r.stdout));
            }
            Err(e) => s.failed.push(format!("run: {e}")),
        }
    };
    plain(&mut s);
    let Some(tb) = f.tsan_blocks else { return s };
    let tbin = f.dir.join(format!("tsan-{tag}"));
    let (c, b) = cpu_of(|| build_emulator(tc, f.cu, &inputs(tb), &none, Sanitizer::Thread, &tbin));
    s.tsan += c;
    if b.is_err() {
        s.failed.push("tsan build".into());
        return s;
    }
    let (c, r) = cpu_of(|| run_bin(&tbin, f.dir, TSAN_CPU, true));
    s.tsan += c;
    match r {
        Ok(r) if r.code == Some(66) || r.timed_out || r.signal.is_some() => {
            s.failed.push(format!("tsan: {}", r.status_text(TSAN_CPU)))
        }
        Ok(r) => s.outputs.push((r.code, r.stdout)),
        Err(e) => s.failed.push(format!("tsan: {e}")),
    }
    // The harness runs the plain binary again to compare it with TSan's.
    plain(&mut s);
    s
}

fn main() {
    let tc = Toolchain::from_env();
    // Fresh precompiled-header cache, after the toolchain read env.sh from the usual one.
    let cache = tempfile::Builder::new()
        .prefix("p2c-bench-pch.")
        .tempdir()
        .unwrap();
    match std::env::var_os("P2C_BENCH_PCH") {
        Some(d) => std::env::set_var("P2C_CACHE", d),
        None => std::env::set_var("P2C_CACHE", cache.path()),
    }
    let tsan = listed("tsan.list");
    let work = tempfile::Builder::new()
        .prefix("p2c-bench-emu.")
        .tempdir()
        .unwrap();
    println!("fixture\told_build\told_run\told_tsan\tnew_build\tnew_run\tnew_tsan\tnote");
    let mut tot = [0.0f64; 6];
    let mut notes = 0;
    for (i, (path, opts, name)) in runs().into_iter().enumerate() {
        let file = SourceFile::new(
            path.display().to_string(),
            std::fs::read_to_string(&path).unwrap(),
        );
        let Some(out) = pragma2cuda::translate(&file, &opts).output else {
            println!("{name}\t-\t-\t-\t-\t-\t-\tno translation");
            continue;
        };
        let dir = work.path().join(format!("f{i}"));
        std::fs::create_dir(&dir).unwrap();
        let cu = dir.join(path.file_name().unwrap()).with_extension("cu");
        std::fs::write(&cu, out).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let listed_tsan = tsan.contains(&stem);
        let blocks = if stem.contains("reduction") || listed_tsan {
            2
        } else {
            0
        };
        let f = Fixture {
            cu: &cu,
            src_dir: path.parent().unwrap(),
            dir: &dir,
            blocks,
            tsan_blocks: listed_tsan.then_some(if stem == "acc_generic_gang" {
                0
            } else {
                blocks
            }),
        };
        let (o, n) = if i % 2 == 0 {
            let o = side(&tc, &f, true);
            (o, side(&tc, &f, false))
        } else {
            let n = side(&tc, &f, false);
            (side(&tc, &f, true), n)
        };
        let mut note = Vec::new();
        if !o.failed.is_empty() {
            note.push(format!("old: {}", o.failed.join(", ")));
        }
        if !n.failed.is_empty() {
            note.push(format!("new: {}", n.failed.join(", ")));
        }
        if o.failed.is_empty() && n.failed.is_empty() && o.outputs != n.outputs {
            note.push("outputs differ".into());
        }
        notes += usize::from(!note.is_empty());
        let row = [o.build, o.run, o.tsan, n.build, n.run, n.tsan];
        for (t, v) in tot.iter_mut().zip(row) {
            *t += v;
        }
        let cells: Vec<String> = row.iter().map(|v| format!("{v:.2}")).collect();
        println!(
            "{name}\t{}\t{}",
            cells.join("\t"),
            note.join("; ").replace('\n', " ")
        );
    }
    let cells: Vec<String> = tot.iter().map(|v| format!("{v:.2}")).collect();
    println!("TOTAL\t{}\t{notes} rows with notes", cells.join("\t"));
    let (old, new) = (tot[0] + tot[1] + tot[2], tot[3] + tot[4] + tot[5]);
    println!("old {old:.2} s, new {new:.2} s CPU: {:.2}x", old / new);
}
