//! `pragma2cuda verify`: translate a C file, build and run the original with
//! gcc (the reference) and the translation on the CPU SIMT emulator (and on a
//! GPU when there is one), and compare exit codes and standard output.
//!
//! The pieces (toolchain discovery, builds, runs with a time limit, the
//! comparison, [`compile_checks`]) are public so the harness tests and `suite`
//! use the same code as the command.

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::directives::Model;
use crate::files::{io_message, read_input, Input};
use crate::source::mask::find_pragmas;
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What `pragma2cuda verify` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyArgs {
    pub file: PathBuf,
    pub device: Device,
    pub keep: Option<PathBuf>,
    pub timeout_secs: u64,
    /// Everything after `--`: compiler flags and extra `.c` files.
    pub extra: Vec<String>,
    /// `--preprocess`: translate the preprocessed file (the `-I`/`-D`/`-U`
    /// flags after `--` go to the preprocessor too).
    pub preprocess: bool,
}

/// Where translated programs run besides the emulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// Emulator, plus the GPU when `nvidia-smi -L` lists one and nvcc is found.
    Auto,
    /// Emulator only.
    Emulate,
    /// Emulator and GPU; a missing GPU or nvcc is an error.
    Gpu,
}

// ---------------------------------------------------------------------------
// Toolchain discovery
// ---------------------------------------------------------------------------

/// The external tools the checks use. Absent tools are `None`; each check says
/// which tool it missed instead of skipping quietly.
#[derive(Clone, Debug, Default)]
pub struct Toolchain {
    pub gcc: Option<PathBuf>,
    pub gxx: Option<PathBuf>,
    pub nvcc: Option<PathBuf>,
    pub clang: Option<PathBuf>,
    pub clang_cuda_root: Option<PathBuf>,
    pub emu_include: Option<PathBuf>,
}

/// `$P2C_CACHE/env.sh`, default `~/.cache/pragma2cuda/env.sh` (what scripts/toolchain.sh writes).
pub fn env_file() -> Option<PathBuf> {
    if let Some(c) = std::env::var_os("P2C_CACHE") {
        return Some(PathBuf::from(c).join("env.sh"));
    }
    let cache = match std::env::var_os("XDG_CACHE_HOME") {
        Some(x) if !x.is_empty() => PathBuf::from(x),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".cache"),
    };
    Some(cache.join("pragma2cuda").join("env.sh"))
}

/// The `export NAME="value"` lines of an env.sh file; values that need a
/// shell to expand (`$...`) are left out.
pub fn parse_env_file(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("export ") else {
            continue;
        };
        let Some((name, value)) = rest.split_once('=') else {
            continue;
        };
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
            .unwrap_or(value);
        if value.contains('$') || value.contains('`') {
            continue;
        }
        out.push((name.trim().to_string(), value.to_string()));
    }
    out
}

/// Finds an executable on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.components().count() > 1 {
        return is_executable(p).then(|| p.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|c| is_executable(c))
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

impl Toolchain {
    /// Reads P2C_NVCC, P2C_CLANG, P2C_CLANG_CUDA_ROOT and P2C_EMU_INCLUDE from
    /// the environment, falling back to the exports of env.sh for the unset
    /// ones, then to PATH (`gcc`, `g++`, `clang-19`, `nvcc`).
    pub fn from_env() -> Toolchain {
        let file_vars = env_file()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .map(|t| parse_env_file(&t))
            .unwrap_or_default();
        let var = |name: &str| -> Option<String> {
            match std::env::var(name) {
                Ok(v) if !v.is_empty() => Some(v),
                _ => file_vars
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.clone())
                    .filter(|v| !v.is_empty()),
            }
        };
        let tool = |var_name: &str, fallback: &str| {
            var(var_name)
                .and_then(|v| which(&v))
                .or_else(|| which(fallback))
        };
        Toolchain {
            gcc: tool("P2C_GCC", "gcc"),
            gxx: tool("P2C_GXX", "g++"),
            nvcc: tool("P2C_NVCC", "nvcc"),
            clang: tool("P2C_CLANG", "clang-19"),
            clang_cuda_root: var("P2C_CLANG_CUDA_ROOT")
                .map(PathBuf::from)
                .filter(|p| p.join("include").is_dir()),
            emu_include: find_emu_include(var("P2C_EMU_INCLUDE").map(PathBuf::from)),
        }
    }

    /// What is missing for the given checks, as one message per tool.
    pub fn missing(&self, needs: &[Tool]) -> Vec<String> {
        let mut out = Vec::new();
        for n in needs {
            let (ok, msg) = match n {
                Tool::Gcc => (self.gcc.is_some(), "gcc not found on PATH"),
                Tool::Gxx => (self.gxx.is_some(), "g++ not found on PATH"),
                Tool::Nvcc => (self.nvcc.is_some(), "nvcc not found: set P2C_NVCC or run scripts/toolchain.sh"),
                Tool::Clang => (
                    self.clang.is_some() && self.clang_cuda_root.is_some(),
                    "clang-19 or its CUDA root not found: set P2C_CLANG_CUDA_ROOT or run scripts/toolchain.sh",
                ),
                Tool::Emulator => (
                    self.emu_include.is_some(),
                    "emulator headers (emu/include/cuda_runtime.h) not found: set P2C_EMU_INCLUDE",
                ),
            };
            if !ok {
                out.push(msg.to_string());
            }
        }
        out
    }
}

/// A tool a check needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Gcc,
    Gxx,
    Nvcc,
    Clang,
    Emulator,
}

/// The emulator's include directory: the explicit one, else
/// `<dir of the executable>/../../emu/include` (target/<profile>/pragma2cuda in
/// a checkout), else the repository this binary was built from.
fn find_emu_include(explicit: Option<PathBuf>) -> Option<PathBuf> {
    let has_header = |d: &Path| d.join("cuda_runtime.h").is_file();
    if let Some(e) = explicit {
        return has_header(&e).then_some(e);
    }
    let mut candidates = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        if let Some(d) = exe.parent() {
            candidates.push(d.join("../../emu/include"));
            candidates.push(d.join("../../../emu/include"));
        }
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("emu/include"));
    candidates
        .into_iter()
        .find(|c| has_header(c))
        .map(|c| c.canonicalize().unwrap_or(c))
}

// ---------------------------------------------------------------------------
// Running programs with a time limit
// ---------------------------------------------------------------------------

pub use super::run::{run_limited, run_with, spawn_retrying, Limits, RunOutput, Whole};

/// The command line as one shell-like string, for logs.
pub fn command_text(cmd: &Command) -> String {
    let mut parts = vec![cmd.get_program().to_string_lossy().into_owned()];
    for a in cmd.get_args() {
        let a = a.to_string_lossy();
        if a.is_empty() || a.contains([' ', '"', '\'', '$', '\\']) {
            parts.push(format!("'{}'", a.replace('\'', "'\\''")));
        } else {
            parts.push(a.into_owned());
        }
    }
    parts.join(" ")
}

/// Compilers get more time than programs; a compiler that hangs is still a failure.
pub const COMPILE_LIMIT: Duration = Duration::from_secs(600);

/// Runs a compiler; `Err` carries the command and its output.
pub(crate) fn compile(cmd: &mut Command) -> Result<RunOutput, String> {
    let line = command_text(cmd);
    match run_limited(cmd, COMPILE_LIMIT) {
        Ok(r) if r.success() => Ok(r),
        Ok(r) => Err(format!(
            "$ {line}\n{}{}",
            tail_lines(&r.text(), 60),
            r.status_text(COMPILE_LIMIT)
        )),
        Err(e) => Err(format!("$ {line}\ncannot run: {}", io_message(&e))),
    }
}

fn tail_lines(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let mut out = String::new();
    if lines.len() > n {
        out.push_str(&format!("[... {} lines left out ...]\n", lines.len() - n));
    }
    for l in &lines[lines.len().saturating_sub(n)..] {
        out.push_str(l);
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------
// Builds
// ---------------------------------------------------------------------------

/// Which offload models a source text uses, from its pragmas (and, for a
/// translated file, the host pragmas and runtime headers it kept).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Models {
    pub omp: bool,
    pub acc: bool,
}

impl Models {
    pub fn of(text: &str) -> Models {
        let mut m = Models::default();
        for p in find_pragmas(text) {
            match p.model {
                Model::Omp => m.omp = true,
                Model::Acc => m.acc = true,
            }
        }
        m.omp |= text.contains("<omp.h>");
        m.acc |= text.contains("<openacc.h>");
        m
    }

    fn union(self, o: Models) -> Models {
        Models {
            omp: self.omp || o.omp,
            acc: self.acc || o.acc,
        }
    }

    /// gcc / g++ flags that enable these models on the host.
    pub fn host_flags(self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.omp {
            v.push("-fopenmp");
        }
        if self.acc {
            v.push("-fopenacc");
        }
        v
    }
}

/// Flags and files shared by every build of one program.
#[derive(Clone, Debug, Default)]
pub struct BuildInputs {
    /// Compiler flags (`-I`, `-D`, ...) for every build.
    pub flags: Vec<String>,
    /// Extra C files of the program.
    pub extra_sources: Vec<PathBuf>,
    /// Include directories added to every build (the main file's directory).
    pub include_dirs: Vec<PathBuf>,
    /// Build the reference without `-fopenmp` / `-fopenacc`: the sequential
    /// program (pragmas ignored), for programs gcc's host OpenMP/OpenACC
    /// cannot compile (gcc 12 stops with an internal compiler error on
    /// OpenACC array reductions).
    pub sequential_reference: bool,
    /// Emulator builds run up to this many blocks of a grid at once
    /// (`-DP2C_SIM_CONCURRENT_BLOCKS`, with `__shared__` declarations
    /// rewritten per block: [`super::emu_shared`]); 0 or 1: one after another.
    pub concurrent_blocks: u32,
}

/// A program whose text says `p2c-reference: sequential` is judged against
/// its sequential build (pragmas ignored): gcc 12's host OpenMP/OpenACC
/// cannot compile it or gets it wrong (see fixtures/README.md). `verify`
/// and the harness both read the mark.
pub fn wants_sequential_reference(text: &str) -> bool {
    text.contains("p2c-reference: sequential")
}

impl BuildInputs {
    /// Splits the arguments after `--` into flags and extra `.c` files.
    pub fn from_extra(extra: &[String]) -> BuildInputs {
        let mut b = BuildInputs::default();
        for a in extra {
            if a.ends_with(".c") && !a.starts_with('-') {
                b.extra_sources.push(PathBuf::from(a));
            } else {
                b.flags.push(a.clone());
            }
        }
        b
    }

    fn include_args(&self) -> Vec<String> {
        self.include_dirs
            .iter()
            .map(|d| format!("-I{}", d.display()))
            .collect()
    }
}

/// Compiled extra C files, with the models they need at link time.
#[derive(Clone, Debug, Default)]
pub struct ExtraObjects {
    pub objects: Vec<PathBuf>,
    pub models: Models,
}

/// Compiles the extra C files with gcc into `work`.
pub fn build_extra_objects(
    tc: &Toolchain,
    inputs: &BuildInputs,
    work: &Path,
) -> Result<ExtraObjects, String> {
    let mut out = ExtraObjects::default();
    if inputs.extra_sources.is_empty() {
        return Ok(out);
    }
    let gcc = tc.gcc.as_ref().ok_or("gcc not found on PATH")?;
    for (i, src) in inputs.extra_sources.iter().enumerate() {
        let text = std::fs::read_to_string(src)
            .map_err(|e| format!("cannot read `{}`: {}", src.display(), io_message(&e)))?;
        let m = Models::of(&text);
        out.models = out.models.union(m);
        let stem = src
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let obj = work.join(format!("extra{i}_{stem}.o"));
        let mut cmd = Command::new(gcc);
        cmd.args(m.host_flags())
            .args(inputs.include_args())
            .args(&inputs.flags)
            .arg("-c")
            .arg(src)
            .arg("-o")
            .arg(&obj);
        compile(&mut cmd)
            .map_err(|e| format!("building extra file `{}` failed:\n{e}", src.display()))?;
        out.objects.push(obj);
    }
    Ok(out)
}

/// Builds the untranslated program with gcc (OpenMP/OpenACC on the host).
pub fn build_reference(
    tc: &Toolchain,
    c_file: &Path,
    inputs: &BuildInputs,
    extra: &ExtraObjects,
    out: &Path,
) -> Result<(), String> {
    let gcc = tc.gcc.as_ref().ok_or("gcc not found on PATH")?;
    let text = std::fs::read_to_string(c_file)
        .map_err(|e| format!("cannot read `{}`: {}", c_file.display(), io_message(&e)))?;
    let m = Models::of(&text).union(extra.models);
    let mut cmd = Command::new(gcc);
    if !inputs.sequential_reference {
        cmd.args(m.host_flags());
    }
    cmd.args(inputs.include_args())
        .args(&inputs.flags)
        .arg(c_file)
        .args(&extra.objects)
        .arg("-o")
        .arg(out)
        .arg("-lm");
    compile(&mut cmd).map(|_| ())
}

/// Sanitizer for the emulator build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sanitizer {
    None,
    Thread,
}

/// Builds a translated .cu for the CPU SIMT emulator with g++.
pub fn build_emulator(
    tc: &Toolchain,
    cu_file: &Path,
    inputs: &BuildInputs,
    extra: &ExtraObjects,
    sanitizer: Sanitizer,
    out: &Path,
) -> Result<(), String> {
    let gxx = tc.gxx.as_ref().ok_or("g++ not found on PATH")?;
    let emu = tc
        .emu_include
        .as_ref()
        .ok_or("emulator headers (emu/include/cuda_runtime.h) not found: set P2C_EMU_INCLUDE")?;
    let text = std::fs::read_to_string(cu_file)
        .map_err(|e| format!("cannot read `{}`: {}", cu_file.display(), io_message(&e)))?;
    let m = Models::of(&text).union(extra.models);
    let (source, blocks) = concurrent_source(cu_file, &text, inputs.concurrent_blocks, out)?;
    // The flags the emulator headers see, in the order of the build: also
    // those of its precompiled header, which goes before the `-I emu`.
    let mut pre: Vec<OsString> = ["-std=c++20", "-O1", "-pthread", "-DP2C_SIMT_EMULATOR"]
        .iter()
        .map(OsString::from)
        .collect();
    if let Some(k) = blocks {
        pre.push(format!("-DP2C_SIM_CONCURRENT_BLOCKS={k}").into());
    }
    if sanitizer == Sanitizer::Thread {
        pre.extend(["-fsanitize=thread", "-g"].map(OsString::from));
    }
    let mut post: Vec<OsString> = vec!["-I".into(), emu.into()];
    post.extend(m.host_flags().into_iter().map(OsString::from));
    post.extend(inputs.include_args().into_iter().map(OsString::from));
    post.extend(inputs.flags.iter().map(OsString::from));
    let pch = super::emu_pch::pch_dir(gxx, emu, &[pre.clone(), post.clone()].concat());
    let mut cmd = Command::new(gxx);
    cmd.args(&pre);
    if blocks.is_some() {
        if let Some(dir) = cu_file.parent().filter(|d| !d.as_os_str().is_empty()) {
            cmd.arg("-iquote").arg(dir);
        }
    }
    if let Some(pch) = pch {
        cmd.arg("-I").arg(pch);
    }
    cmd.args(&post)
        .args(["-x", "c++"])
        .arg(&source)
        .args(["-x", "none"])
        .args(&extra.objects)
        .arg("-o")
        .arg(out)
        .arg("-lm");
    compile(&mut cmd).map(|_| ())
}

/// The file an emulator build compiles: `cu_file` itself, or with
/// concurrent blocks its copy beside `out` with every `__shared__`
/// declaration made per block (and `#line` naming the original).
fn concurrent_source(
    cu_file: &Path,
    text: &str,
    blocks: u32,
    out: &Path,
) -> Result<(PathBuf, Option<u32>), String> {
    if blocks <= 1 {
        return Ok((cu_file.to_path_buf(), None));
    }
    let rewritten = super::emu_shared::per_block_shared(text).map_err(|e| {
        format!(
            "{}: {e}: the emulator cannot run its blocks concurrently",
            cu_file.display()
        )
    })?;
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".blocks.cu");
    let path = out.with_file_name(name);
    let quoted = cu_file
        .display()
        .to_string()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    std::fs::write(&path, format!("#line 1 \"{quoted}\"\n{rewritten}"))
        .map_err(|e| format!("cannot write `{}`: {}", path.display(), io_message(&e)))?;
    Ok((path, Some(blocks)))
}

/// The GPU's architecture (`sm_90`), from nvidia-smi; `None` when no GPU is listed.
pub fn gpu_arch() -> Option<String> {
    let smi = which("nvidia-smi")?;
    let listed = run_limited(Command::new(&smi).arg("-L"), Duration::from_secs(30)).ok()?;
    if !listed.success() || !String::from_utf8_lossy(&listed.stdout).contains("GPU ") {
        return None;
    }
    let cap = run_limited(
        Command::new(&smi).args(["--query-gpu=compute_cap", "--format=csv,noheader"]),
        Duration::from_secs(30),
    )
    .ok()?;
    let first = String::from_utf8_lossy(&cap.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string();
    let digits: String = first.chars().filter(|c| c.is_ascii_digit()).collect();
    Some(if cap.success() && !digits.is_empty() {
        format!("sm_{digits}")
    } else {
        "native".to_string()
    })
}

/// Builds a translated .cu with nvcc for `arch` (`sm_90` or `native`).
pub fn build_gpu(
    tc: &Toolchain,
    cu_file: &Path,
    inputs: &BuildInputs,
    extra: &ExtraObjects,
    arch: &str,
    out: &Path,
) -> Result<(), String> {
    let nvcc = tc
        .nvcc
        .as_ref()
        .ok_or("nvcc not found: set P2C_NVCC or run scripts/toolchain.sh")?;
    let text = std::fs::read_to_string(cu_file)
        .map_err(|e| format!("cannot read `{}`: {}", cu_file.display(), io_message(&e)))?;
    let m = Models::of(&text).union(extra.models);
    let mut cmd = Command::new(nvcc);
    cmd.arg(format!("-arch={arch}"));
    for f in m.host_flags() {
        cmd.arg(format!("-Xcompiler={f}"));
    }
    cmd.args(inputs.include_args())
        .args(&inputs.flags)
        .arg(cu_file)
        .args(&extra.objects)
        .arg("-o")
        .arg(out)
        .arg("-lm");
    if m.omp {
        cmd.arg("-lgomp");
    }
    compile(&mut cmd).map(|_| ())
}

// ---------------------------------------------------------------------------
// Comparing runs
// ---------------------------------------------------------------------------

fn show_line(l: &[u8]) -> String {
    let l = String::from_utf8_lossy(l);
    format!("`{}`", l.chars().take(200).collect::<String>())
}

/// Compares a run with the reference: `None` when the exit status, stdout
/// and stderr are all equal (each stream read whole), otherwise what
/// differed, in words: the status, and per stream its first differing line.
pub fn compare(
    reference: &RunOutput,
    other: &RunOutput,
    other_name: &str,
    limit: Duration,
) -> Option<String> {
    let mut diffs = Vec::new();
    if reference.code != other.code
        || reference.timed_out != other.timed_out
        || reference.signal != other.signal
    {
        diffs.push(format!(
            "status: reference {}, {other_name} {}",
            reference.status_text(limit),
            other.status_text(limit)
        ));
    }
    let streams = [
        (
            "stdout",
            (&reference.stdout, &reference.stdout_whole),
            (&other.stdout, &other.stdout_whole),
        ),
        (
            "stderr",
            (&reference.stderr, &reference.stderr_whole),
            (&other.stderr, &other.stderr_whole),
        ),
    ];
    for (name, (ra, rw), (oa, ow)) in streams {
        match super::compare::first_difference(rw.reader(ra), ow.reader(oa)) {
            Ok(None) => {}
            Ok(Some(d)) => {
                let line = |h: &[u8], w: &Whole| {
                    super::compare::line_at(w.reader(h), d.line_start).unwrap_or_default()
                };
                diffs.push(format!(
                    "{name} line {}: reference {}, {other_name} {} ({} vs {} bytes)",
                    d.line,
                    show_line(&line(ra, rw)),
                    show_line(&line(oa, ow)),
                    rw.length(ra),
                    ow.length(oa)
                ));
            }
            Err(e) => diffs.push(format!("{name}: cannot compare: {}", io_message(&e))),
        }
    }
    (!diffs.is_empty()).then(|| diffs.join("; "))
}

// ---------------------------------------------------------------------------
// verify
// ---------------------------------------------------------------------------

/// How runs of the translation are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// Same exit status and stdout as the gcc build of the original.
    Reference,
    /// Exit code 0 (the validation suites' own rule); no reference build.
    ExitZero,
}

#[derive(Clone, Debug)]
pub struct VerifyOptions {
    pub device: Device,
    pub timeout: Duration,
    pub inputs: BuildInputs,
    pub judge: Judge,
    /// Translate the preprocessed file (`--preprocess`), with the `-I`,
    /// `-D`, `-U` of the build flags and the include directories.
    pub preprocess: bool,
    /// Judge time-outs on CPU time (all threads together) with this limit;
    /// `timeout` is then the wall-clock backstop. For loaded machines: their
    /// wall clock stretches, a program's CPU time does not.
    pub cpu_limit: Option<Duration>,
    /// Environment variables every run of the program gets (the reference's
    /// and the translation's): a suite's per-test settings.
    pub run_env: Vec<(String, String)>,
}

/// The verdict of one verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    /// The translator reported errors (or produced nothing).
    TranslateError,
    /// A build, a run or the comparison failed.
    Fail,
    /// The reference (gcc's build of the original) failed to build, was
    /// killed by a signal or timed out: there is nothing to compare with, so
    /// no pass, whatever the translation did.
    ReferenceFailed,
    /// The input could not be read or a tool is missing.
    Setup,
}

#[derive(Clone, Debug)]
pub struct VerifyReport {
    pub outcome: Outcome,
    /// One line: why it failed, or what passed.
    pub summary: String,
    /// Step by step log (commands that failed with their output, run results).
    pub log: Vec<String>,
    /// The translator's diagnostics, rendered for people.
    pub diagnostics: String,
}

impl VerifyReport {
    fn new(outcome: Outcome, summary: impl Into<String>) -> Self {
        VerifyReport {
            outcome,
            summary: summary.into(),
            log: Vec::new(),
            diagnostics: String::new(),
        }
    }
}

/// The preprocessor flags of a build: the file's directory and the include
/// directories as `-I`, then the `-I`, `-D`, `-U` among the build flags.
fn cpp_flags(c_file: &Path, inputs: &BuildInputs) -> Vec<std::ffi::OsString> {
    let mut out: Vec<std::ffi::OsString> = Vec::new();
    if let Some(d) = c_file.parent().filter(|d| !d.as_os_str().is_empty()) {
        out.push(format!("-I{}", d.display()).into());
    }
    for d in &inputs.include_dirs {
        out.push(format!("-I{}", d.display()).into());
    }
    let mut flags = inputs.flags.iter();
    while let Some(f) = flags.next() {
        if matches!(f.as_str(), "-I" | "-D" | "-U") {
            if let Some(v) = flags.next() {
                out.push(format!("{f}{v}").into());
            }
        } else if f.starts_with("-I") || f.starts_with("-D") || f.starts_with("-U") {
            out.push(f.into());
        }
    }
    out
}

/// Translates `c_file` and verifies the translation (see [`verify_translated`]).
/// Artifacts go to `work`.
pub fn verify_file(
    c_file: &Path,
    opts: &VerifyOptions,
    tc: &Toolchain,
    work: &Path,
) -> VerifyReport {
    let input = Input::Path(c_file.to_path_buf());
    let file = match read_input(&input) {
        Ok(f) => f,
        Err((_, msg)) => return VerifyReport::new(Outcome::Setup, format!("error[E0001]: {msg}")),
    };
    let file = if opts.preprocess {
        match crate::files::preprocess::preprocess(&input, &file, &cpp_flags(c_file, &opts.inputs))
        {
            Ok(f) => f,
            Err(
                crate::files::preprocess::CppError::CannotRun(m)
                | crate::files::preprocess::CppError::Failed(m),
            ) => {
                return VerifyReport::new(
                    Outcome::TranslateError,
                    format!("{}: error[E0004]: {m}", file.name),
                );
            }
        }
    } else {
        file
    };
    let t = crate::translate(
        &file,
        &crate::Options {
            emit: crate::Emit::Cuda,
            ..Default::default()
        },
    );
    let rendered = crate::diag::render(&file, &t.diagnostics, crate::diag::Format::Human, false);
    let out = match (&t.output, t.has_errors()) {
        (Some(o), false) => o.clone(),
        _ => {
            let first = t
                .diagnostics
                .iter()
                .find(|d| d.is_error())
                .map(|d| {
                    let (l, c) = file.line_col(d.primary_span().start.min(file.text.len()));
                    format!(
                        "{}:{l}:{c}: error[{}]: {}",
                        file.name,
                        d.code.as_str(),
                        d.message
                    )
                })
                .unwrap_or_else(|| {
                    format!(
                        "{}: the translator produced no output and reported no error",
                        file.name
                    )
                });
            let mut r = VerifyReport::new(Outcome::TranslateError, first);
            r.diagnostics = rendered;
            return r;
        }
    };
    let stem = c_file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let cu = work.join(format!("{stem}.cu"));
    if let Err(e) = std::fs::write(&cu, out) {
        return VerifyReport::new(
            Outcome::Setup,
            format!("cannot write `{}`: {}", cu.display(), io_message(&e)),
        );
    }
    let mut r = verify_translated(c_file, &cu, opts, tc, work);
    r.diagnostics = rendered;
    r
}

/// Builds and runs the reference (for [`Judge::Reference`]), the emulator
/// build of `cu_file`, and the GPU build when the device asks for it; judges
/// the runs. Artifacts go to `work`.
pub fn verify_translated(
    c_file: &Path,
    cu_file: &Path,
    opts: &VerifyOptions,
    tc: &Toolchain,
    work: &Path,
) -> VerifyReport {
    let mut log = Vec::new();
    let mut inputs = opts.inputs.clone();
    if let Some(dir) = c_file.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        inputs
            .include_dirs
            .insert(0, dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()));
    }
    let mut needs = vec![Tool::Gcc, Tool::Gxx, Tool::Emulator];
    let gpu_arch = match opts.device {
        Device::Emulate => None,
        Device::Auto => gpu_arch().filter(|_| tc.nvcc.is_some()),
        Device::Gpu => {
            needs.push(Tool::Nvcc);
            match gpu_arch() {
                Some(a) => Some(a),
                None => {
                    return VerifyReport::new(
                        Outcome::Setup,
                        "--device gpu: nvidia-smi lists no GPU",
                    )
                }
            }
        }
    };
    let missing = tc.missing(&needs);
    if !missing.is_empty() {
        return VerifyReport::new(Outcome::Setup, missing.join("; "));
    }
    let fail = |log: Vec<String>, summary: String| VerifyReport {
        outcome: Outcome::Fail,
        summary,
        log,
        diagnostics: String::new(),
    };

    let extra = match build_extra_objects(tc, &inputs, work) {
        Ok(e) => e,
        Err(e) => return fail(vec![e], "building the extra C files failed".into()),
    };
    let limits = Limits {
        wall: opts.timeout,
        cpu: opts.cpu_limit,
    };
    let shown = limits.shown();
    let run = |bin: &Path| -> Result<RunOutput, String> {
        let mut cmd = Command::new(bin);
        cmd.current_dir(work)
            .envs(opts.run_env.iter().map(|(k, v)| (k, v)));
        run_with(&mut cmd, limits)
            .map_err(|e| format!("cannot run `{}`: {}", bin.display(), io_message(&e)))
    };
    let reference_failed = |log: Vec<String>, summary: String| VerifyReport {
        outcome: Outcome::ReferenceFailed,
        summary,
        log,
        diagnostics: String::new(),
    };

    let reference = if opts.judge == Judge::Reference {
        let bin = work.join("reference");
        if let Err(e) = build_reference(tc, c_file, &inputs, &extra, &bin) {
            log.push(format!("reference build (gcc) failed:\n{e}"));
            return reference_failed(log, "the reference build (gcc) failed".into());
        }
        match run(&bin) {
            Ok(r) => {
                log.push(format!(
                    "reference: {} in {:.2} s",
                    r.status_text(shown),
                    r.duration.as_secs_f64()
                ));
                if r.abnormal() {
                    let stderr = String::from_utf8_lossy(&r.stderr);
                    if !stderr.trim().is_empty() {
                        log.push(format!("reference stderr:\n{}", tail_lines(&stderr, 30)));
                    }
                    return reference_failed(
                        log,
                        format!(
                            "the reference (gcc's build of the original) {}: nothing to compare with",
                            r.status_text(shown)
                        ),
                    );
                }
                Some(r)
            }
            Err(e) => return reference_failed(vec![e.clone()], e),
        }
    } else {
        None
    };

    if let Some(v) = leftover_check(cu_file) {
        log.push(v.clone());
        return fail(log, v);
    }
    let mut targets: Vec<(&str, PathBuf, Result<(), String>)> = Vec::new();
    let emu_bin = work.join("emulator");
    targets.push((
        "emulator",
        emu_bin.clone(),
        build_emulator(tc, cu_file, &inputs, &extra, Sanitizer::None, &emu_bin),
    ));
    if let Some(arch) = &gpu_arch {
        let gpu_bin = work.join("gpu");
        targets.push((
            "gpu",
            gpu_bin.clone(),
            build_gpu(tc, cu_file, &inputs, &extra, arch, &gpu_bin),
        ));
    }
    let mut problems = Vec::new();
    for (name, bin, built) in targets {
        if let Err(e) = built {
            log.push(format!("{name} build failed:\n{e}"));
            problems.push(format!("the {name} build failed"));
            continue;
        }
        let r = match run(&bin) {
            Ok(r) => r,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        log.push(format!(
            "{name}: {} in {:.2} s",
            r.status_text(shown),
            r.duration.as_secs_f64()
        ));
        let verdict = match &reference {
            Some(reference) => compare(reference, &r, name, shown),
            None if r.success() => None,
            None => Some(format!("{name}: {}", r.status_text(shown))),
        };
        if let Some(v) = verdict {
            let stderr = String::from_utf8_lossy(&r.stderr);
            if !stderr.trim().is_empty() {
                log.push(format!("{name} stderr:\n{}", tail_lines(&stderr, 30)));
            }
            problems.push(v);
        }
    }
    if problems.is_empty() {
        let (what, plural) = if gpu_arch.is_some() {
            ("emulator and GPU", true)
        } else {
            ("emulator", false)
        };
        let rule = match (reference.is_some(), plural) {
            (true, true) => "agree with the reference",
            (true, false) => "agrees with the reference",
            (false, true) => "exit with 0",
            (false, false) => "exits with 0",
        };
        VerifyReport {
            outcome: Outcome::Pass,
            summary: format!("{what} {rule}"),
            log,
            diagnostics: String::new(),
        }
    } else {
        fail(log, problems.join("; "))
    }
}

/// `Some(message)` when the translation still holds offload pragmas: the
/// `-fopenmp`/`-fopenacc` builds would run those regions on the host, and an
/// untranslated region agreeing with the reference proves nothing.
fn leftover_check(cu_file: &Path) -> Option<String> {
    let text = std::fs::read_to_string(cu_file).ok()?;
    let found = super::leftover::offload_pragmas(&text);
    let first = found.first()?;
    Some(format!(
        "the translation still contains {} offload pragma{} that the emulator and GPU builds \
         would run on the host (an untranslated region is no agreement): {}:{}: `#pragma {}`",
        found.len(),
        if found.len() == 1 { "" } else { "s" },
        cu_file.display(),
        first.line,
        first.text
    ))
}

/// `P2C_EMU_BLOCKS=K`: the emulator runs up to K (1..=16) blocks of a grid
/// at once; unset or empty: one after another.
pub fn emu_blocks_from_env() -> Result<u32, String> {
    match std::env::var("P2C_EMU_BLOCKS") {
        Err(_) => Ok(0),
        Ok(v) if v.trim().is_empty() => Ok(0),
        Ok(v) => match v.trim().parse::<u32>() {
            Ok(k @ 1..=16) => Ok(k),
            _ => Err(format!(
                "P2C_EMU_BLOCKS must be a number from 1 to 16, not `{v}`"
            )),
        },
    }
}

/// verify reads its input several times (reference build, translation,
/// markers), so it takes only a regular file within the translator's input
/// size limit: `/dev/zero`, a FIFO or a huge file is refused before any read.
fn check_input_file(path: &Path) -> Result<(), String> {
    // A missing file is reported by the translation's own read (E0001).
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    if !meta.is_file() {
        return Err(format!(
            "`{}` is not a regular file: verify needs a C source file it can read more than once",
            path.display()
        ));
    }
    let limit = crate::files::DEFAULT_MAX_INPUT;
    if meta.len() > limit {
        return Err(format!(
            "input `{}` is larger than the input size limit of {} MiB",
            path.display(),
            limit >> 20
        ));
    }
    Ok(())
}

/// `pragma2cuda verify`.
pub fn main(a: &VerifyArgs) -> i32 {
    if let Err(e) = check_input_file(&a.file) {
        eprintln!("error[E0001]: {e}");
        return EXIT_USAGE;
    }
    let tc = Toolchain::from_env();
    let mut inputs = BuildInputs::from_extra(&a.extra);
    inputs.sequential_reference =
        std::fs::read_to_string(&a.file).is_ok_and(|t| wants_sequential_reference(&t));
    inputs.concurrent_blocks = match emu_blocks_from_env() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let opts = VerifyOptions {
        device: a.device,
        timeout: Duration::from_secs(a.timeout_secs),
        inputs,
        judge: Judge::Reference,
        preprocess: a.preprocess,
        cpu_limit: None,
        run_env: Vec::new(),
    };
    let tmp;
    let work: PathBuf = match &a.keep {
        Some(k) => {
            if let Err(e) = std::fs::create_dir_all(k) {
                eprintln!(
                    "error[E0002]: cannot create `{}`: {}",
                    k.display(),
                    io_message(&e)
                );
                return EXIT_USAGE;
            }
            // Programs run with the work directory as their current
            // directory: a relative DIR must not be resolved again there.
            k.canonicalize().unwrap_or_else(|_| k.clone())
        }
        None => match tempfile::Builder::new().prefix("p2c-verify.").tempdir() {
            Ok(t) => {
                tmp = t;
                tmp.path().to_path_buf()
            }
            Err(e) => {
                eprintln!(
                    "error: cannot create a temporary directory: {}",
                    io_message(&e)
                );
                return EXIT_USAGE;
            }
        },
    };
    let r = verify_file(&a.file, &opts, &tc, &work);
    eprint!("{}", r.diagnostics);
    for l in &r.log {
        eprintln!("{l}");
    }
    let name = a.file.display();
    match r.outcome {
        Outcome::Pass => {
            println!("PASS {name}: {}", r.summary);
            EXIT_OK
        }
        Outcome::TranslateError => {
            println!("TRANSLATE-ERROR {name}: {}", r.summary);
            EXIT_ERRORS
        }
        Outcome::Fail => {
            println!("FAIL {name}: {}", r.summary);
            EXIT_ERRORS
        }
        Outcome::ReferenceFailed => {
            println!("REFERENCE-FAILED {name}: {}", r.summary);
            EXIT_ERRORS
        }
        Outcome::Setup => {
            if r.summary.starts_with("error") {
                eprintln!("{}", r.summary);
            } else {
                eprintln!("error: {}", r.summary);
            }
            EXIT_USAGE
        }
    }
}

// ---------------------------------------------------------------------------
// compile_checks: nvcc + clang on a generated file
// ---------------------------------------------------------------------------

/// ptxas figures of one kernel for one architecture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelStats {
    pub arch: String,
    /// The entry name as ptxas prints it (mangled for C++ linkage).
    pub kernel: String,
    pub registers: u32,
    pub barriers: u32,
    pub shared_bytes: u64,
    pub spill_stores: u64,
    pub spill_loads: u64,
    pub stack_frame: u64,
}

/// What compiling a generated .cu with nvcc (sm_80, sm_90) and clang (device
/// and host sides) found.
#[derive(Clone, Debug, Default)]
pub struct CompileReport {
    pub kernels: Vec<KernelStats>,
    /// Failed compiles (or missing tools), each with its command and output.
    pub errors: Vec<String>,
    /// Every warning line either compiler printed, once each, prefixed by the compiler.
    pub warnings: Vec<String>,
}

impl CompileReport {
    /// No error and no warning: the generated file is held to -Werror.
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty() && self.warnings.is_empty()
    }
}

/// The number before `word` in `text` ("8 registers" -> 8).
fn number_before(text: &str, word: &str) -> Option<u64> {
    let i = text.find(word)?;
    text[..i].split_whitespace().last()?.parse().ok()
}

/// Parses `-Xptxas -v` output into per-kernel figures.
pub fn parse_ptxas(text: &str) -> Vec<KernelStats> {
    let mut out: Vec<KernelStats> = Vec::new();
    let mut current: Option<usize> = None;
    let mut props_for: Option<String> = None;
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l
            .strip_prefix("ptxas info")
            .map(|r| r.trim_start_matches([' ', ':']))
        {
            if let Some(r) = rest.strip_prefix("Compiling entry function '") {
                let (name, after) = r.split_once('\'').unwrap_or((r, ""));
                let arch = after.split('\'').nth(1).unwrap_or("").to_string();
                out.push(KernelStats {
                    arch,
                    kernel: name.to_string(),
                    ..Default::default()
                });
                current = Some(out.len() - 1);
                props_for = None;
            } else if let Some(name) = rest.strip_prefix("Function properties for ") {
                props_for = Some(name.trim().to_string());
            } else if rest.starts_with("Used ") {
                if let Some(k) = current.and_then(|i| out.get_mut(i)) {
                    k.registers = number_before(rest, " registers").unwrap_or(0) as u32;
                    k.barriers = number_before(rest, " barriers").unwrap_or(0) as u32;
                    k.shared_bytes = number_before(rest, " bytes smem").unwrap_or(0);
                }
            }
        } else if l.contains("bytes stack frame") {
            if let (Some(k), Some(p)) = (current.and_then(|i| out.get_mut(i)), &props_for) {
                if *p == k.kernel {
                    k.stack_frame = number_before(l, " bytes stack frame").unwrap_or(0);
                    k.spill_stores = number_before(l, " bytes spill stores").unwrap_or(0);
                    k.spill_loads = number_before(l, " bytes spill loads").unwrap_or(0);
                }
            }
        }
    }
    out
}

/// Lines of compiler output that are warnings (clang `file:l:c: warning:`,
/// nvcc `file(l): warning #N-D:`, `ptxas warning :`, `nvcc warning :`).
pub fn warning_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| {
            let l = l.trim();
            l.contains(": warning:")
                || l.contains("): warning #")
                || l.contains("warning :")
                || l.starts_with("warning:")
        })
        .map(|l| l.trim().to_string())
        .collect()
}

/// Where a check compile writes its object: beside the `.cu`, removed
/// after. Never `/dev/null`: a compiler that fails removes its output file,
/// and run as root (CI containers) that deletes the device node, so the
/// next writer makes `/dev/null` a plain file for the whole machine.
fn scratch_object(cu_path: &Path, tag: &str) -> PathBuf {
    let mut name = cu_path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.o", tag.trim_start_matches('-')));
    cu_path.with_file_name(name)
}

/// [`compile_checks_with`] with the toolchain from the environment and no extra flags.
pub fn compile_checks(cu_path: &Path) -> CompileReport {
    compile_checks_with(cu_path, &Toolchain::from_env(), &[])
}

/// Compiles `cu_path` with nvcc -c for sm_80 and sm_90 (`-Xptxas -v`,
/// figures parsed) and with clang-19 device-only and host-only (`-Wall`).
/// Compile failures and every warning are recorded; nothing is skipped: a
/// missing tool is an error.
pub fn compile_checks_with(cu_path: &Path, tc: &Toolchain, flags: &[String]) -> CompileReport {
    let mut rep = CompileReport::default();
    for m in tc.missing(&[Tool::Nvcc, Tool::Clang]) {
        rep.errors.push(m);
    }
    let mut seen = BTreeSet::new();
    let mut add_warnings = |rep: &mut CompileReport, who: &str, text: &str| {
        for w in warning_lines(text) {
            if seen.insert((who.to_string(), w.clone())) {
                rep.warnings.push(format!("{who}: {w}"));
            }
        }
    };
    if let Some(nvcc) = &tc.nvcc {
        let mut cmd = Command::new(nvcc);
        cmd.args([
            "-c",
            "-gencode",
            "arch=compute_80,code=sm_80",
            "-gencode",
            "arch=compute_90,code=sm_90",
            "-Xptxas",
            "-v",
        ])
        .args(flags)
        .arg(cu_path)
        .arg("-o")
        .arg(scratch_object(cu_path, "nvcc"));
        let result = compile(&mut cmd);
        let _ = std::fs::remove_file(scratch_object(cu_path, "nvcc"));
        match result {
            Ok(r) => {
                let text = r.text();
                rep.kernels = parse_ptxas(&text);
                add_warnings(&mut rep, "nvcc", &text);
            }
            Err(e) => {
                add_warnings(&mut rep, "nvcc", &e);
                rep.errors.push(format!("nvcc failed:\n{e}"));
            }
        }
    }
    if let (Some(clang), Some(root)) = (&tc.clang, &tc.clang_cuda_root) {
        for side in ["--cuda-device-only", "--cuda-host-only"] {
            let mut cmd = Command::new(clang);
            cmd.args(["-x", "cuda", "--cuda-gpu-arch=sm_80"])
                .arg(format!("--cuda-path={}", root.display()))
                .args(["-Wno-unknown-cuda-version", "-Wall", side, "-c"])
                .args(flags)
                .arg(cu_path)
                .arg("-o")
                .arg(scratch_object(cu_path, side));
            let who = if side == "--cuda-device-only" {
                "clang device"
            } else {
                "clang host"
            };
            let result = compile(&mut cmd);
            let _ = std::fs::remove_file(scratch_object(cu_path, side));
            match result {
                Ok(r) => add_warnings(&mut rep, who, &r.text()),
                Err(e) => {
                    add_warnings(&mut rep, who, &e);
                    rep.errors.push(format!("{who} failed:\n{e}"));
                }
            }
        }
    }
    rep
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTXAS: &str = "\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'big' for 'sm_80'
ptxas info    : Function properties for big
    512 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads
ptxas info    : Used 32 registers, used 0 barriers, 512 bytes cumulative stack size, 360 bytes cmem[0]
ptxas info    : Compile time = 7.204 ms
ptxas info    : Function properties for helper
    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function '_Z3addPii' for 'sm_90'
ptxas info    : Function properties for _Z3addPii
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 9 registers, used 1 barriers, 1024 bytes smem
";

    #[test]
    fn ptxas_figures() {
        let k = parse_ptxas(PTXAS);
        assert_eq!(
            k,
            vec![
                KernelStats {
                    arch: "sm_80".into(),
                    kernel: "big".into(),
                    registers: 32,
                    barriers: 0,
                    shared_bytes: 0,
                    spill_stores: 4,
                    spill_loads: 8,
                    stack_frame: 512
                },
                KernelStats {
                    arch: "sm_90".into(),
                    kernel: "_Z3addPii".into(),
                    registers: 9,
                    barriers: 1,
                    shared_bytes: 1024,
                    spill_stores: 0,
                    spill_loads: 0,
                    stack_frame: 0
                },
            ]
        );
    }

    #[test]
    fn warnings_recognised() {
        let text =
            "k.cu(5): warning #177-D: variable \"unused\" was declared but never referenced\n\
                    Remark: The warnings can be suppressed\n\
                    k.cu:5:73: warning: unused variable 'unused' [-Wunused-variable]\n\
                    1 warning generated when compiling for sm_80.\n\
                    ptxas warning : Stack size for entry function cannot be statically determined\n\
                    ptxas info    : Used 8 registers\n";
        assert_eq!(warning_lines(text).len(), 3);
    }

    #[test]
    fn env_file_exports() {
        let v = parse_env_file("export A=\"/x/y\"\nexport B='z'\nexport C=\"$(command -v clang-19 || true)\"\n# export D=1\nE=2\n");
        assert_eq!(
            v,
            vec![("A".into(), "/x/y".into()), ("B".into(), "z".into())]
        );
    }

    #[test]
    fn the_sequential_reference_mark_is_read_from_the_text() {
        assert!(wants_sequential_reference(
            "/* gcc 12 stops, so p2c-reference: sequential */"
        ));
        assert!(!wants_sequential_reference("/* p2c-reference: gcc */"));
    }

    #[test]
    fn extra_arguments_split() {
        let b = BuildInputs::from_extra(&["-DN=3".into(), "b.c".into(), "-Iinc".into()]);
        assert_eq!(b.flags, vec!["-DN=3".to_string(), "-Iinc".to_string()]);
        assert_eq!(b.extra_sources, vec![PathBuf::from("b.c")]);
    }

    #[test]
    fn models_from_pragmas() {
        assert_eq!(
            Models::of("#pragma omp target\nint x;\n"),
            Models {
                omp: true,
                acc: false
            }
        );
        assert_eq!(
            Models::of("  #  pragma acc parallel loop\n"),
            Models {
                omp: false,
                acc: true
            }
        );
        assert_eq!(
            Models::of("// #pragma omp target\nint main(){}\n"),
            Models::default()
        );
    }

    fn out(code: Option<i32>, stdout: &str) -> RunOutput {
        RunOutput {
            code,
            stdout: stdout.as_bytes().to_vec(),
            ..Default::default()
        }
    }

    #[test]
    fn comparison_says_what_differs() {
        let t = Duration::from_secs(60);
        assert_eq!(
            compare(
                &out(Some(0), "a\nb\n"),
                &out(Some(0), "a\nb\n"),
                "emulator",
                t
            ),
            None
        );
        let d = compare(
            &out(Some(0), "a\nb\nc\n"),
            &out(Some(1), "a\nB\nc\n"),
            "emulator",
            t,
        )
        .unwrap();
        assert!(
            d.contains("status: reference exit code 0, emulator exit code 1"),
            "{d}"
        );
        assert!(
            d.contains("stdout line 2: reference `b`, emulator `B`"),
            "{d}"
        );
        let d = compare(&out(Some(0), "a\nb\n"), &out(Some(0), "a\n"), "gpu", t).unwrap();
        assert!(d.contains("stdout line 2: reference `b`, gpu ``"), "{d}");
        let hung = RunOutput {
            timed_out: true,
            ..Default::default()
        };
        let d = compare(&out(Some(0), ""), &hung, "emulator", t).unwrap();
        assert!(d.contains("emulator timed out after 60 s"), "{d}");
    }
}

/// The build-and-compare plumbing with hand-written files: a C reference and
/// a ".cu" that is plain C++ (the emulator header is a stub), so only gcc and
/// g++ are needed.
#[cfg(test)]
mod plumbing_tests {
    use super::*;

    const C_SRC: &str = "\
#include <stdio.h>
int helper(int);
int main(void) {
  int s = 0;
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < 100; i++) s += i;
  printf(\"sum %d\\n\", s);
  printf(\"helper %d\\n\", helper(4));
  return 3;
}
";
    const EXTRA_C: &str = "int helper(int x) { return x * 10; }\n";

    fn setup() -> (tempfile::TempDir, Toolchain, VerifyOptions) {
        let d = tempfile::tempdir().unwrap();
        let emu = d.path().join("emu");
        std::fs::create_dir(&emu).unwrap();
        std::fs::write(
            emu.join("cuda_runtime.h"),
            "#pragma once\n#ifndef P2C_SIMT_EMULATOR\n#error not an emulator build\n#endif\n",
        )
        .unwrap();
        std::fs::write(d.path().join("prog.c"), C_SRC).unwrap();
        std::fs::write(d.path().join("helper.c"), EXTRA_C).unwrap();
        std::fs::create_dir(d.path().join("work")).unwrap();
        let tc = Toolchain {
            gcc: which("gcc"),
            gxx: which("g++"),
            emu_include: Some(emu),
            ..Default::default()
        };
        assert!(
            tc.gcc.is_some() && tc.gxx.is_some(),
            "gcc and g++ are needed for these tests"
        );
        let opts = VerifyOptions {
            device: Device::Emulate,
            timeout: Duration::from_secs(5),
            inputs: BuildInputs::from_extra(&[d.path().join("helper.c").display().to_string()]),
            judge: Judge::Reference,
            preprocess: false,
            cpu_limit: None,
            run_env: Vec::new(),
        };
        (d, tc, opts)
    }

    fn cu(body_sum: &str, ret: &str) -> String {
        format!(
            "#include <cuda_runtime.h>\n#include <cstdio>\nextern \"C\" int helper(int);\n\
             int main() {{ {body_sum} std::printf(\"helper %d\\n\", helper(4)); return {ret}; }}\n"
        )
    }

    #[test]
    fn agreeing_translation_passes() {
        let (d, tc, opts) = setup();
        let cu_path = d.path().join("prog.cu");
        std::fs::write(&cu_path, cu("std::printf(\"sum %d\\n\", 4950);", "3")).unwrap();
        let r = verify_translated(
            &d.path().join("prog.c"),
            &cu_path,
            &opts,
            &tc,
            &d.path().join("work"),
        );
        assert_eq!(
            r.outcome,
            Outcome::Pass,
            "{}\n{}",
            r.summary,
            r.log.join("\n")
        );
        assert!(
            r.log
                .iter()
                .any(|l| l.starts_with("reference: exit code 3")),
            "{:?}",
            r.log
        );
    }

    #[test]
    fn disagreement_is_described() {
        let (d, tc, opts) = setup();
        let cu_path = d.path().join("prog.cu");
        std::fs::write(&cu_path, cu("std::printf(\"sum %d\\n\", 4949);", "0")).unwrap();
        let r = verify_translated(
            &d.path().join("prog.c"),
            &cu_path,
            &opts,
            &tc,
            &d.path().join("work"),
        );
        assert_eq!(r.outcome, Outcome::Fail);
        assert!(
            r.summary
                .contains("status: reference exit code 3, emulator exit code 0"),
            "{}",
            r.summary
        );
        assert!(
            r.summary
                .contains("stdout line 1: reference `sum 4950`, emulator `sum 4949`"),
            "{}",
            r.summary
        );
    }

    #[test]
    fn hang_is_a_failure_not_a_stall() {
        let (d, tc, mut opts) = setup();
        opts.timeout = Duration::from_secs(2);
        let cu_path = d.path().join("prog.cu");
        std::fs::write(&cu_path, cu("for (volatile int k = 0;; k = k) {}", "3")).unwrap();
        let r = verify_translated(
            &d.path().join("prog.c"),
            &cu_path,
            &opts,
            &tc,
            &d.path().join("work"),
        );
        assert_eq!(r.outcome, Outcome::Fail);
        assert!(
            r.summary.contains("emulator timed out after 2 s"),
            "{}",
            r.summary
        );
    }

    #[test]
    fn build_failure_is_reported_with_the_compiler_output() {
        let (d, tc, opts) = setup();
        let cu_path = d.path().join("prog.cu");
        std::fs::write(&cu_path, "int main() { return undeclared_name; }\n").unwrap();
        let r = verify_translated(
            &d.path().join("prog.c"),
            &cu_path,
            &opts,
            &tc,
            &d.path().join("work"),
        );
        assert_eq!(r.outcome, Outcome::Fail);
        assert_eq!(r.summary, "the emulator build failed");
        assert!(
            r.log.iter().any(|l| l.contains("undeclared_name")),
            "{:?}",
            r.log
        );
    }

    #[test]
    fn exit_zero_rule_skips_the_reference() {
        let (d, tc, mut opts) = setup();
        opts.judge = Judge::ExitZero;
        let cu_path = d.path().join("prog.cu");
        std::fs::write(&cu_path, cu("", "0")).unwrap();
        let r = verify_translated(
            &d.path().join("prog.c"),
            &cu_path,
            &opts,
            &tc,
            &d.path().join("work"),
        );
        assert_eq!(r.outcome, Outcome::Pass, "{}", r.summary);
        assert!(!d.path().join("work/reference").exists());
        std::fs::write(&cu_path, cu("", "1")).unwrap();
        let r = verify_translated(
            &d.path().join("prog.c"),
            &cu_path,
            &opts,
            &tc,
            &d.path().join("work"),
        );
        assert_eq!(
            (r.outcome, r.summary.as_str()),
            (Outcome::Fail, "emulator: exit code 1")
        );
    }

    /// Runs `c_src` as the reference and `cu_src` as the translation.
    fn verify_pair(c_src: &str, cu_src: &str) -> VerifyReport {
        let (d, tc, opts) = setup();
        std::fs::write(d.path().join("prog.c"), c_src).unwrap();
        let cu_path = d.path().join("prog.cu");
        std::fs::write(&cu_path, cu_src).unwrap();
        verify_translated(
            &d.path().join("prog.c"),
            &cu_path,
            &opts,
            &tc,
            &d.path().join("work"),
        )
    }

    #[test]
    fn a_difference_only_on_stderr_fails() {
        let r = verify_pair(
            "#include <stdio.h>\nint main(void) { printf(\"same\\n\"); fprintf(stderr, \"warn 1\\n\"); return 0; }\n",
            "#include <cuda_runtime.h>\n#include <cstdio>\nint main() { std::printf(\"same\\n\"); std::fprintf(stderr, \"warn 2\\n\"); return 0; }\n",
        );
        assert_eq!(r.outcome, Outcome::Fail, "{}", r.summary);
        assert!(
            r.summary
                .contains("stderr line 1: reference `warn 1`, emulator `warn 2`"),
            "{}",
            r.summary
        );
        assert!(!r.summary.contains("stdout"), "{}", r.summary);
    }

    /// A reference killed by a signal is no reference, even when the
    /// translation dies the same way.
    #[test]
    fn a_crashing_reference_is_not_a_pass() {
        let r = verify_pair(
            "#include <stdlib.h>\nint main(void) { abort(); }\n",
            "#include <cuda_runtime.h>\n#include <cstdlib>\nint main() { std::abort(); }\n",
        );
        assert_eq!(r.outcome, Outcome::ReferenceFailed, "{}", r.summary);
        assert!(r.summary.contains("killed by signal 6"), "{}", r.summary);
    }

    #[test]
    fn a_hanging_reference_is_not_a_pass() {
        let (d, tc, mut opts) = setup();
        opts.timeout = Duration::from_secs(1);
        std::fs::write(
            d.path().join("prog.c"),
            "int main(void) { for (volatile int k = 0;; k = k) {} }\n",
        )
        .unwrap();
        let cu_path = d.path().join("prog.cu");
        std::fs::write(&cu_path, cu("for (volatile int k = 0;; k = k) {}", "3")).unwrap();
        let r = verify_translated(
            &d.path().join("prog.c"),
            &cu_path,
            &opts,
            &tc,
            &d.path().join("work"),
        );
        assert_eq!(r.outcome, Outcome::ReferenceFailed, "{}", r.summary);
        assert!(r.summary.contains("timed out after 1 s"), "{}", r.summary);
    }

    #[test]
    fn a_reference_that_fails_to_build_is_not_a_pass() {
        let r = verify_pair(
            "int main(void) { return undeclared_name; }\n",
            "#include <cuda_runtime.h>\nint main() { return 0; }\n",
        );
        assert_eq!(r.outcome, Outcome::ReferenceFailed, "{}", r.summary);
    }

    #[test]
    fn a_left_over_offload_pragma_fails() {
        let r = verify_pair(
            "int main(void) { return 0; }\n",
            "#include <cuda_runtime.h>\nint main() {\n  int s = 0;\n#pragma /* c */ omp target teams distribute map(tofrom: s)\n  for (int i = 0; i < 4; i++) s += 0;\n  return s;\n}\n",
        );
        assert_eq!(r.outcome, Outcome::Fail, "{}", r.summary);
        assert!(
            r.summary
                .contains("prog.cu:4: `#pragma omp target teams distribute map(tofrom: s)`"),
            "{}",
            r.summary
        );
    }

    /// Outputs that differ only after 16 MiB (where captures used to be cut).
    #[test]
    fn a_difference_past_16_mib_fails() {
        let big = "for (int k = 0; k < 17 * 1024; k++) fwrite(kb, 1, 1024, stdout);";
        let r = verify_pair(
            &format!("#include <stdio.h>\nstatic char kb[1024];\nint main(void) {{ {big} printf(\"\\nend a\\n\"); return 0; }}\n"),
            &format!("#include <cuda_runtime.h>\n#include <cstdio>\nstatic char kb[1024];\nint main() {{ {big} std::printf(\"\\nend b\\n\"); return 0; }}\n"),
        );
        assert_eq!(r.outcome, Outcome::Fail, "{}", r.summary);
        assert!(
            r.summary
                .contains("stdout line 2: reference `end a`, emulator `end b`"),
            "{}",
            r.summary
        );
    }

    #[test]
    fn missing_emulator_is_a_setup_error() {
        let (d, mut tc, opts) = setup();
        tc.emu_include = None;
        let r = verify_translated(
            &d.path().join("prog.c"),
            &d.path().join("prog.cu"),
            &opts,
            &tc,
            &d.path().join("work"),
        );
        assert_eq!(r.outcome, Outcome::Setup);
        assert!(r.summary.contains("P2C_EMU_INCLUDE"), "{}", r.summary);
    }
}
