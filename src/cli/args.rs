//! Hand-written argument parsing (the grammar is small and a parser crate
//! would be the only dependency for it).

use crate::diag::Format;
use crate::ir::reduction::Strategy;
use crate::tools::verify::Device;
use crate::Emit;
use std::ffi::OsString;
use std::path::PathBuf;

pub const HELP: &str = "\
pragma2cuda: translate C with OpenMP/OpenACC offload pragmas into CUDA C

USAGE:
    pragma2cuda [OPTIONS] INPUT.c [-o OUTPUT.cu]
    pragma2cuda verify FILE.c [--device auto|emulate|gpu] [--keep DIR] [--timeout SECS] [-- FLAGS... EXTRA.c...]
    pragma2cuda suite DIR LIST [--jobs N] [--device auto|emulate|gpu] [--timeout SECS] [-- FLAGS...]

ARGUMENTS:
    INPUT.c     the C file to translate; `-` reads standard input

    Without --preprocess the file is read as written: pragmas in every arm of #if/#ifdef/#else are
    translated and the preprocessor lines are kept, and pragmas spelled through macros defined in
    the file (`#define PAR _Pragma(\"omp ...\")`, `_Pragma(#x)`) are found. A name alone before a
    loop that the file does not define may be a pragma macro from a header: it is reported, and
    --preprocess handles it.

OPTIONS:
    -o, --output FILE           write the result to FILE (written to a temporary file in the same
                                directory, then renamed: a failed run never leaves a partial file and
                                never touches an existing one, which keeps its permissions). A symbolic
                                link is followed; a device (/dev/null), FIFO or socket is written into,
                                never replaced. FILE may not be the input file (exit 2). Without -o,
                                or with `-o -`, the result goes to standard output.
    --emit KIND                 what to produce: cuda (default), directives (the parsed pragmas),
                                directives-json, plan (the lowering plan of each region),
                                reductions (each region's reductions in the abstract form of
                                RED_SETUP / RED_INIT / RED_FINI / RED_TEARDOWN, and their expansion),
                                sharing (each variable's data-sharing attribute, where it lives on
                                the GPU and the rule that decided it), sharing-json
    --reduction-strategy S      how reductions combine across workers and gangs: tree (default:
                                warp shuffles, warp masters through shared memory, last block
                                combines the per-block partials), lock (shared-memory buffer and
                                global value under spin locks), atomic (tree, with native atomics
                                at the gang level where every reduction of the loop has one)
    --shared-budget BYTES       shared memory a team's staged variables may use in generic mode
                                (variables of the sequential part used by nested parallel regions);
                                the largest ones beyond it go to a per-team frame in global memory.
                                Default 32768: 32 KiB of the 48 KiB of static shared memory a block
                                always has, leaving 16 KiB for reduction scratch and user __shared__
    --diagnostics-format FMT    human (default; colored when stderr is a terminal and NO_COLOR is
                                unset), gcc (file:line:col: error: message [CODE]), json
    --explain CODE              print the documentation of a diagnostic code (E0201, ...): what the
                                check is, why, an example and the fix; `--explain all` lists every code
    --max-errors N              show at most N errors (default 50; 0 shows all), then one line counting
                                the errors (and warnings) not shown, like gcc's -fmax-errors
    --max-input-size BYTES      refuse an input larger than BYTES (default 256M; suffixes K, M, G;
                                0: no limit). The input is read up to the limit and no further, so
                                /dev/zero or an endless pipe fails fast. A FIFO given as INPUT waits
                                at most 10 s for a program to open it for writing, then fails.
                                Input that is not UTF-8 text or holds a NUL byte is refused (E0001)
    --preprocess                run the C preprocessor (`cc -E`, else gcc or clang; or $P2C_CPP) on the
                                input first, then translate what it produced: macros are expanded
                                (pragmas from macros in headers are found) and only the arms of
                                #if/#ifdef that the flags select remain. The output then holds the
                                contents of the user's headers (it is self-contained); system headers
                                stay as #include lines. Diagnostics name the original files and lines.
    -I DIR, -D NAME[=VAL], -U NAME
                                preprocessor flags, passed in order (also joined: -Idir, -DN=4);
                                only with --preprocess
    -h, --help                  print this help
    -V, --version               print the version

SUBCOMMANDS:
    verify      translate FILE.c, build and run the original with gcc (reference) and the translation
                on the CPU SIMT emulator (and on a GPU: --device gpu, or auto when nvidia-smi lists one
                and nvcc is found); compare the exit status, standard output and standard error, each
                stream read whole (a difference on stderr alone fails). Arguments after `--` are
                compiler flags for every build; the ones ending in .c are extra C files of the program,
                compiled with gcc and linked into every build. --keep DIR keeps the .cu, binaries and
                logs in DIR. --timeout limits each program run (default 60 s); the program runs in its
                own process group and, when it times out or ends, that group and every process it
                started (those that called setsid included) are killed. An output stream beyond
                1 GiB stops the program (SIGXFSZ) and fails the run.
                Verdicts: PASS; FAIL (a difference, a failed build or run, or offload pragmas left in
                the translation: an OpenMP target/teams/distribute or any OpenACC directive, which the
                -fopenmp/-fopenacc builds would run on the host); REFERENCE-FAILED (exit 1: gcc's
                build of the original failed to build, was killed by a signal or timed out, so there
                is nothing to compare with, whatever the translation did). A reference that exits
                normally with a non-zero code (a test that prints FAIL and returns 1) is compared
                like any other: the translation must exit with the same code and print the same.
    suite       run every file listed in LIST (one path per line relative to DIR, or a TSV whose first
                column is the path; a header line `file...` and lines starting with # are skipped)
                through the translation and the emulator (and GPU); a file passes when the translated
                program exits with 0. Prints PASS / FAIL / TRANSLATE-ERROR per file and `N passed, M failed`.

    A file literally named `verify` or `suite` can be translated as `./verify`.

ENVIRONMENT:
    P2C_NVCC, P2C_CLANG_CUDA_ROOT, P2C_CLANG   tools for verify (read from ~/.cache/pragma2cuda/env.sh when unset)
    P2C_EMU_INCLUDE                            the emulator's include directory
    P2C_EMU_BLOCKS                             verify/suite: the emulator runs up to this many (1-16)
                                               blocks of a grid at once, as a GPU does, so races between
                                               gangs/teams can show (default: one after another)
    P2C_CPP                                    the preprocessor command for --preprocess (default: cc, gcc, clang;
                                               it is run with -E -C -dD -x c and must write GNU
                                               line markers, as gcc and clang do)

EXIT STATUS:
    0   success (warnings allowed); verify: all runs agree; suite: every file passed
    1   the diagnostics contain errors; verify/suite: a disagreement or a failed build or run
    2   usage error, or the input cannot be read or the output cannot be written, or the
        preprocessor of --preprocess cannot be run (an error it reports in the input is 1)
";

const USAGE_TRANSLATE: &str =
    "pragma2cuda [--emit KIND] [--reduction-strategy S] [--shared-budget BYTES] [--diagnostics-format FMT] [--max-errors N] [--max-input-size BYTES] [--preprocess [-I DIR] [-D NAME[=VAL]] [-U NAME]] INPUT.c [-o OUTPUT.cu]";
const USAGE_VERIFY: &str = "pragma2cuda verify FILE.c [--device auto|emulate|gpu] [--keep DIR] [--timeout SECS] [--preprocess] [-- FLAGS...]";
const USAGE_SUITE: &str = "pragma2cuda suite DIR LIST [--jobs N] [--device auto|emulate|gpu] [--timeout SECS] [-- FLAGS...]";

/// Where the input comes from or the output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stream {
    Std,
    Path(PathBuf),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranslateArgs {
    pub input: Stream,
    pub output: Stream,
    pub emit: Emit,
    pub reduction_strategy: Strategy,
    pub diagnostics_format: Format,
    /// `--preprocess`: run the C preprocessor first.
    pub preprocess: bool,
    /// The preprocessor flags, in order, joined form: `-IDIR`, `-DNAME=VAL`, `-UNAME`.
    pub cpp_flags: Vec<OsString>,
    /// `--shared-budget BYTES`: shared memory for a team's staged variables.
    pub shared_budget: u64,
    /// `--max-input-size BYTES`: the largest input read (0: no limit).
    pub max_input_size: u64,
    /// `--max-errors N`: errors shown before the rest are counted (0: all).
    pub max_errors: usize,
}

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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteArgs {
    pub dir: PathBuf,
    pub list: PathBuf,
    pub jobs: usize,
    pub device: Device,
    pub timeout_secs: u64,
    pub extra: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Version,
    Translate(TranslateArgs),
    Verify(VerifyArgs),
    Suite(SuiteArgs),
    /// `--explain CODE`: print the documentation of a diagnostic code.
    Explain(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    pub usage: &'static str,
}

fn err<T>(usage: &'static str, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        message: message.into(),
        usage,
    })
}

/// Splits `--name=value` into (`--name`, Some(value)).
fn split_eq(arg: &str) -> (&str, Option<&str>) {
    if arg.starts_with("--") {
        if let Some(i) = arg.find('=') {
            return (&arg[..i], Some(&arg[i + 1..]));
        }
    }
    (arg, None)
}

/// The arguments, as UTF-8 strings where they are options; paths may be any bytes.
struct Cursor {
    args: Vec<OsString>,
    pos: usize,
}

impl Cursor {
    fn next(&mut self) -> Option<OsString> {
        let a = self.args.get(self.pos).cloned();
        self.pos += 1;
        a
    }

    /// The value of option `name`: the `=value` part, or the next argument.
    fn value(
        &mut self,
        name: &str,
        inline: Option<&str>,
        usage: &'static str,
    ) -> Result<OsString, ParseError> {
        match inline {
            Some(v) => Ok(OsString::from(v)),
            None => match self.next() {
                Some(v) => Ok(v),
                None => err(usage, format!("option `{name}` needs a value")),
            },
        }
    }

    fn rest(&mut self) -> Vec<OsString> {
        let r = self.args[self.pos.min(self.args.len())..].to_vec();
        self.pos = self.args.len();
        r
    }
}

fn utf8(v: OsString, what: &str, usage: &'static str) -> Result<String, ParseError> {
    v.into_string().or_else(|v| {
        err(
            usage,
            format!("{what} `{}` is not valid UTF-8", v.to_string_lossy()),
        )
    })
}

fn parse_emit(v: &str) -> Result<Emit, ParseError> {
    match v {
        "cuda" => Ok(Emit::Cuda),
        "directives" => Ok(Emit::Directives),
        "directives-json" => Ok(Emit::DirectivesJson),
        "plan" => Ok(Emit::Plan),
        "reductions" => Ok(Emit::Reductions),
        "sharing" => Ok(Emit::Sharing),
        "sharing-json" => Ok(Emit::SharingJson),
        _ => err(
            USAGE_TRANSLATE,
            format!(
                "unknown --emit value `{v}` (expected cuda, directives, directives-json, plan, reductions, sharing or sharing-json)"
            ),
        ),
    }
}

fn parse_strategy(v: &str) -> Result<Strategy, ParseError> {
    Strategy::parse(v).map_or_else(
        || {
            err(
                USAGE_TRANSLATE,
                format!("unknown --reduction-strategy value `{v}` (expected tree, lock or atomic)"),
            )
        },
        Ok,
    )
}

fn parse_format(v: &str) -> Result<Format, ParseError> {
    match v {
        "human" => Ok(Format::Human),
        "gcc" => Ok(Format::Gcc),
        "json" => Ok(Format::Json),
        _ => err(
            USAGE_TRANSLATE,
            format!("unknown --diagnostics-format value `{v}` (expected human, gcc or json)"),
        ),
    }
}

fn parse_device(v: &str, usage: &'static str) -> Result<Device, ParseError> {
    match v {
        "auto" => Ok(Device::Auto),
        "emulate" => Ok(Device::Emulate),
        "gpu" => Ok(Device::Gpu),
        _ => err(
            usage,
            format!("unknown --device value `{v}` (expected auto, emulate or gpu)"),
        ),
    }
}

fn parse_count(v: &str, name: &str, usage: &'static str) -> Result<u64, ParseError> {
    match v.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => err(
            usage,
            format!("{name} needs a positive whole number, not `{v}`"),
        ),
    }
}

/// Parses the arguments after the program name.
pub fn parse(args: Vec<OsString>) -> Result<Command, ParseError> {
    let mut c = Cursor { args, pos: 0 };
    match c.args.first().and_then(|a| a.to_str()) {
        Some("verify") => {
            c.pos = 1;
            return parse_verify(c);
        }
        Some("suite") => {
            c.pos = 1;
            return parse_suite(c);
        }
        _ => {}
    }
    let u = USAGE_TRANSLATE;
    let mut input: Option<Stream> = None;
    let mut output: Option<Stream> = None;
    let mut emit = Emit::Cuda;
    let mut strategy = Strategy::default();
    let mut format = Format::Human;
    let mut preprocess = false;
    let mut cpp_flags: Vec<OsString> = Vec::new();
    let mut shared_budget = crate::lower::generic::DEFAULT_SHARED_BUDGET;
    let mut max_input_size = super::input::DEFAULT_MAX_INPUT;
    let mut max_errors = super::DEFAULT_MAX_ERRORS;
    let mut only_positional = false;
    while let Some(raw) = c.next() {
        let s = raw.to_string_lossy().into_owned();
        let positional = only_positional || s == "-" || !s.starts_with('-');
        if positional {
            if input.is_some() {
                return err(
                    u,
                    format!("more than one input file (`{s}`); translate one file at a time"),
                );
            }
            input = Some(if s == "-" && !only_positional {
                Stream::Std
            } else {
                Stream::Path(PathBuf::from(raw))
            });
            continue;
        }
        let (name, inline) = split_eq(&s);
        let inline = inline.map(str::to_owned);
        match name {
            "--" => only_positional = true,
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--explain" => {
                let code = utf8(c.value(name, inline.as_deref(), u)?, "value", u)?;
                return Ok(Command::Explain(code));
            }
            "-o" | "--output" => {
                if output.is_some() {
                    return err(u, "option `-o` given more than once");
                }
                let v = c.value(name, inline.as_deref(), u)?;
                output = Some(if v == "-" {
                    Stream::Std
                } else {
                    Stream::Path(PathBuf::from(v))
                });
            }
            "--emit" => {
                emit = parse_emit(&utf8(c.value(name, inline.as_deref(), u)?, "value", u)?)?
            }
            "--reduction-strategy" => {
                strategy = parse_strategy(&utf8(c.value(name, inline.as_deref(), u)?, "value", u)?)?
            }
            "--diagnostics-format" => {
                format = parse_format(&utf8(c.value(name, inline.as_deref(), u)?, "value", u)?)?
            }
            "--shared-budget" => {
                let v = utf8(c.value(name, inline.as_deref(), u)?, "value", u)?;
                shared_budget = match v.parse::<u64>() {
                    Ok(b) if b <= 48 * 1024 => b,
                    _ => {
                        return err(
                            u,
                            format!("--shared-budget needs a byte count from 0 to 49152 (static shared memory per block), not `{v}`"),
                        )
                    }
                };
            }
            "--max-input-size" => {
                let v = utf8(c.value(name, inline.as_deref(), u)?, "value", u)?;
                max_input_size = parse_size(&v).ok_or_else(|| ParseError {
                    message: format!("--max-input-size needs a byte count (a whole number, optionally with K, M or G), not `{v}`"),
                    usage: u,
                })?;
            }
            "--max-errors" => {
                let v = utf8(c.value(name, inline.as_deref(), u)?, "value", u)?;
                max_errors = v.parse::<usize>().map_err(|_| ParseError {
                    message: format!("--max-errors needs a whole number (0: no limit), not `{v}`"),
                    usage: u,
                })?;
            }
            "--preprocess" => preprocess = true,
            "-I" | "-D" | "-U" => {
                let Some(v) = c.next() else {
                    return err(u, format!("option `{name}` needs a value"));
                };
                cpp_flags.push(cpp_flag(name, v, u)?);
            }
            _ if s.len() > 2
                && (s.starts_with("-I") || s.starts_with("-D") || s.starts_with("-U")) =>
            {
                cpp_flags.push(cpp_flag(&s[..2], os_tail(&raw), u)?);
            }
            _ if s.starts_with("-o") && s.len() > 2 => {
                if output.is_some() {
                    return err(u, "option `-o` given more than once");
                }
                output = Some(Stream::Path(PathBuf::from(&raw.to_string_lossy()[2..])));
            }
            _ => return err(u, format!("unknown option `{s}`")),
        }
    }
    let Some(input) = input else {
        return err(u, "no input file (use `-` to read standard input)");
    };
    if !preprocess && !cpp_flags.is_empty() {
        return err(
            u,
            format!(
                "`{}` is a preprocessor flag: it needs --preprocess",
                cpp_flags[0].to_string_lossy()
            ),
        );
    }
    Ok(Command::Translate(TranslateArgs {
        input,
        output: output.unwrap_or(Stream::Std),
        emit,
        reduction_strategy: strategy,
        diagnostics_format: format,
        preprocess,
        cpp_flags,
        shared_budget,
        max_input_size,
        max_errors,
    }))
}

/// `4096`, `64K`, `256M`, `1G` (binary units) as bytes.
fn parse_size(v: &str) -> Option<u64> {
    let (digits, shift) = match v.as_bytes().last()? {
        b'K' | b'k' => (&v[..v.len() - 1], 10),
        b'M' | b'm' => (&v[..v.len() - 1], 20),
        b'G' | b'g' => (&v[..v.len() - 1], 30),
        _ => (v, 0),
    };
    let n: u64 = digits.parse().ok()?;
    n.checked_mul(1u64 << shift)
}

/// The argument after the first two bytes (`-Idir` -> `dir`), any bytes kept.
fn os_tail(raw: &OsString) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::{OsStrExt, OsStringExt};
        OsString::from_vec(raw.as_bytes()[2..].to_vec())
    }
    #[cfg(not(unix))]
    {
        OsString::from(&raw.to_string_lossy()[2..])
    }
}

/// `-I`/`-D`/`-U` and its value as one argument (`-IDIR`); a `-D` or `-U`
/// value must start like a C identifier.
fn cpp_flag(flag: &str, value: OsString, u: &'static str) -> Result<OsString, ParseError> {
    if value.is_empty() {
        return err(u, format!("option `{flag}` needs a value"));
    }
    if flag != "-I" {
        let v = value.to_string_lossy();
        let name: String = v.split('=').next().unwrap_or("").to_string();
        let ident = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && (flag == "-D" || !v.contains('='));
        if !ident {
            return err(
                u,
                format!(
                    "`{flag} {v}`: expected {}",
                    if flag == "-D" {
                        "NAME or NAME=VALUE"
                    } else {
                        "a macro NAME"
                    }
                ),
            );
        }
    }
    let mut f = OsString::from(flag);
    f.push(value);
    Ok(f)
}

fn parse_verify(mut c: Cursor) -> Result<Command, ParseError> {
    let u = USAGE_VERIFY;
    let mut file = None;
    let mut device = Device::Auto;
    let mut keep = None;
    let mut timeout_secs = 60;
    let mut extra = Vec::new();
    let mut preprocess = false;
    while let Some(raw) = c.next() {
        let s = raw.to_string_lossy().into_owned();
        if !s.starts_with('-') {
            if file.is_some() {
                return err(
                    u,
                    format!("more than one file (`{s}`); extra C files go after `--`"),
                );
            }
            file = Some(PathBuf::from(raw));
            continue;
        }
        let (name, inline) = split_eq(&s);
        let inline = inline.map(str::to_owned);
        match name {
            "--" => {
                for a in c.rest() {
                    extra.push(utf8(a, "argument", u)?);
                }
            }
            "-h" | "--help" => return Ok(Command::Help),
            "--device" => {
                device = parse_device(&utf8(c.value(name, inline.as_deref(), u)?, "value", u)?, u)?
            }
            "--keep" => keep = Some(PathBuf::from(c.value(name, inline.as_deref(), u)?)),
            "--preprocess" => preprocess = true,
            "--timeout" => {
                timeout_secs = parse_count(
                    &utf8(c.value(name, inline.as_deref(), u)?, "value", u)?,
                    "--timeout",
                    u,
                )?
            }
            _ => {
                return err(
                    u,
                    format!("unknown option `{s}` (compiler flags go after `--`)"),
                )
            }
        }
    }
    let Some(file) = file else {
        return err(u, "no file to verify");
    };
    Ok(Command::Verify(VerifyArgs {
        file,
        device,
        keep,
        timeout_secs,
        extra,
        preprocess,
    }))
}

fn parse_suite(mut c: Cursor) -> Result<Command, ParseError> {
    let u = USAGE_SUITE;
    let mut pos: Vec<PathBuf> = Vec::new();
    let mut jobs = 2usize;
    let mut device = Device::Auto;
    let mut timeout_secs = 60;
    let mut extra = Vec::new();
    while let Some(raw) = c.next() {
        let s = raw.to_string_lossy().into_owned();
        if !s.starts_with('-') {
            pos.push(PathBuf::from(raw));
            continue;
        }
        let (name, inline) = split_eq(&s);
        let inline = inline.map(str::to_owned);
        match name {
            "--" => {
                for a in c.rest() {
                    extra.push(utf8(a, "argument", u)?);
                }
            }
            "-h" | "--help" => return Ok(Command::Help),
            "-j" | "--jobs" => {
                jobs = parse_count(
                    &utf8(c.value(name, inline.as_deref(), u)?, "value", u)?,
                    "--jobs",
                    u,
                )?
                .min(256) as usize
            }
            "--device" => {
                device = parse_device(&utf8(c.value(name, inline.as_deref(), u)?, "value", u)?, u)?
            }
            "--timeout" => {
                timeout_secs = parse_count(
                    &utf8(c.value(name, inline.as_deref(), u)?, "value", u)?,
                    "--timeout",
                    u,
                )?
            }
            _ => {
                return err(
                    u,
                    format!("unknown option `{s}` (compiler flags go after `--`)"),
                )
            }
        }
    }
    if pos.len() != 2 {
        return err(
            u,
            format!(
                "suite takes a directory and a list file ({} given)",
                pos.len()
            ),
        );
    }
    let list = pos.pop().unwrap_or_default();
    let dir = pos.pop().unwrap_or_default();
    Ok(Command::Suite(SuiteArgs {
        dir,
        list,
        jobs,
        device,
        timeout_secs,
        extra,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, ParseError> {
        parse(args.iter().map(OsString::from).collect())
    }

    fn t(args: &[&str]) -> TranslateArgs {
        match p(args) {
            Ok(Command::Translate(t)) => t,
            other => panic!("expected a translate command, got {other:?}"),
        }
    }

    #[test]
    fn input_and_output_forms() {
        let a = t(&["x.c", "-o", "y.cu"]);
        assert_eq!(a.input, Stream::Path("x.c".into()));
        assert_eq!(a.output, Stream::Path("y.cu".into()));
        assert_eq!(t(&["-oy.cu", "x.c"]).output, Stream::Path("y.cu".into()));
        assert_eq!(
            t(&["--output=y.cu", "x.c"]).output,
            Stream::Path("y.cu".into())
        );
        let a = t(&["-", "-o", "-"]);
        assert_eq!((a.input, a.output), (Stream::Std, Stream::Std));
        assert_eq!(t(&["x.c"]).output, Stream::Std);
        assert_eq!(
            t(&["--", "-weird.c"]).input,
            Stream::Path("-weird.c".into())
        );
        assert_eq!(t(&["./verify"]).input, Stream::Path("./verify".into()));
    }

    #[test]
    fn emit_and_format_values() {
        assert_eq!(t(&["--emit=plan", "x.c"]).emit, Emit::Plan);
        assert_eq!(
            t(&["--emit", "directives-json", "x.c"]).emit,
            Emit::DirectivesJson
        );
        assert_eq!(t(&["x.c", "--emit=directives"]).emit, Emit::Directives);
        assert_eq!(t(&["--emit=sharing", "x.c"]).emit, Emit::Sharing);
        assert_eq!(
            t(&["--emit", "sharing-json", "x.c"]).emit,
            Emit::SharingJson
        );
        assert_eq!(t(&["x.c"]).emit, Emit::Cuda);
        assert_eq!(t(&["--emit=reductions", "x.c"]).emit, Emit::Reductions);
        assert_eq!(t(&["x.c"]).reduction_strategy, Strategy::Tree);
        assert_eq!(
            t(&["--reduction-strategy", "lock", "x.c"]).reduction_strategy,
            Strategy::Lock
        );
        assert_eq!(
            t(&["--reduction-strategy=atomic", "x.c"]).reduction_strategy,
            Strategy::Atomic
        );
        assert_eq!(
            t(&["--diagnostics-format=json", "x.c"]).diagnostics_format,
            Format::Json
        );
        assert_eq!(
            t(&["--diagnostics-format", "gcc", "x.c"]).diagnostics_format,
            Format::Gcc
        );
        assert_eq!(t(&["x.c"]).diagnostics_format, Format::Human);
        assert_eq!(t(&["--shared-budget=0", "x.c"]).shared_budget, 0);
        assert_eq!(t(&["--shared-budget", "4096", "x.c"]).shared_budget, 4096);
        assert_eq!(t(&["x.c"]).shared_budget, 32768);
    }

    #[test]
    fn usage_errors() {
        for bad in [
            &[][..],
            &["--emit=ptx", "x.c"],
            &["--diagnostics-format=xml", "x.c"],
            &["--reduction-strategy=fast", "x.c"],
            &["x.c", "y.c"],
            &["x.c", "-o"],
            &["x.c", "-o", "a", "-o", "b"],
            &["--frobnicate", "x.c"],
            &["--shared-budget=-1", "x.c"],
            &["--shared-budget=lots", "x.c"],
            &["verify"],
            &["verify", "a.c", "--device=cpu"],
            &["suite", "dir"],
            &["suite", "dir", "list", "--jobs=0"],
        ] {
            let r = p(bad);
            assert!(r.is_err(), "{bad:?} parsed as {r:?}");
        }
        assert!(p(&["--emit=ptx", "x.c"])
            .unwrap_err()
            .message
            .contains("`ptx`"));
    }

    #[test]
    fn preprocess_flags() {
        let a = t(&[
            "--preprocess",
            "-I",
            "inc dir",
            "-Iother",
            "-D",
            "N=4",
            "-DX",
            "-U",
            "Y",
            "-UZ",
            "-DS=\"a b\"",
            "x.c",
        ]);
        assert!(a.preprocess);
        let flags: Vec<String> = a
            .cpp_flags
            .iter()
            .map(|f| f.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            flags,
            [
                "-Iinc dir",
                "-Iother",
                "-DN=4",
                "-DX",
                "-UY",
                "-UZ",
                "-DS=\"a b\""
            ]
        );
        assert!(!t(&["x.c"]).preprocess);
        for bad in [
            &["-DX", "x.c"][..],
            &["--preprocess", "x.c", "-D"],
            &["--preprocess", "-D", "=1", "x.c"],
            &["--preprocess", "-D2X", "x.c"],
            &["--preprocess", "-UX=1", "x.c"],
            &["--preprocess", "-I", "", "x.c"],
        ] {
            assert!(p(bad).is_err(), "{bad:?}");
        }
        assert!(p(&["-Ia", "x.c"])
            .unwrap_err()
            .message
            .contains("needs --preprocess"));
    }

    #[test]
    fn help_and_version() {
        assert_eq!(p(&["--help"]), Ok(Command::Help));
        assert_eq!(p(&["x.c", "-h"]), Ok(Command::Help));
        assert_eq!(p(&["-V"]), Ok(Command::Version));
        assert_eq!(p(&["verify", "--help"]), Ok(Command::Help));
        assert_eq!(
            p(&["--explain", "E0201"]),
            Ok(Command::Explain("E0201".into()))
        );
        assert_eq!(
            p(&["--explain=e0205", "x.c"]),
            Ok(Command::Explain("e0205".into()))
        );
        assert!(p(&["--explain"]).is_err());
    }

    #[test]
    fn verify_and_suite() {
        let Ok(Command::Verify(v)) = p(&[
            "verify", "a.c", "--device", "emulate", "--keep=k", "--", "-DN=3", "b.c",
        ]) else {
            panic!("verify did not parse")
        };
        assert_eq!(v.file, PathBuf::from("a.c"));
        assert_eq!(v.device, Device::Emulate);
        assert_eq!(v.keep, Some(PathBuf::from("k")));
        assert_eq!(v.extra, vec!["-DN=3".to_string(), "b.c".to_string()]);
        assert_eq!(v.timeout_secs, 60);
        let Ok(Command::Suite(s)) = p(&["suite", "d", "l.tsv", "-j", "3", "--", "-Iinc"]) else {
            panic!("suite did not parse")
        };
        assert_eq!(
            (s.dir, s.list, s.jobs),
            (PathBuf::from("d"), PathBuf::from("l.tsv"), 3)
        );
        assert_eq!(s.extra, vec!["-Iinc".to_string()]);
    }
}
