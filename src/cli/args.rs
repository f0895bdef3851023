//! The command line's grammar, on clap 4 (derive). clap parses; the help text
//! is `help.rs`, written for people. gcc's multi-letter single-dash flags
//! (`-MD`, `-MF`, `-fmax-errors=N`) are respelled as long options first.

use clap::{ArgAction, CommandFactory, FromArgMatches, Parser, Subcommand};
use pragma2cuda::diag::Format;
use pragma2cuda::emit::prelude::Mode as PreludeMode;
use pragma2cuda::files::{Stream, DEFAULT_MAX_INPUT};
use pragma2cuda::ir::reduction::Strategy;
use pragma2cuda::tools::suite::SuiteArgs;
use pragma2cuda::tools::verify::{Device, VerifyArgs};
use pragma2cuda::Emit;
use std::ffi::OsString;
use std::path::PathBuf;

pub use super::help::HELP;

const USAGE_TRANSLATE: &str =
    "pragma2cuda [--emit KIND] [--reduction-strategy S] [--shared-budget BYTES] [--diagnostics-format FMT] [--max-errors N] [--max-input-size BYTES] [--preprocess [-I DIR] [-D NAME[=VAL]] [-U NAME]] INPUT.c [-o OUTPUT.cu]";
const USAGE_VERIFY: &str = "pragma2cuda verify FILE.c [--device auto|emulate|gpu] [--keep DIR] [--timeout SECS] [--preprocess] [-- FLAGS...]";
const USAGE_SUITE: &str = "pragma2cuda suite DIR LIST [--jobs N] [--device auto|emulate|gpu] [--timeout SECS] [--known FILE] [-- FLAGS...]";

/// The default of `--max-errors`, gcc's `-fmax-errors` idea.
pub const DEFAULT_MAX_ERRORS: usize = 50;

/// `-MD`, `-MF`, `-MT`, `-MP`: a make dependency file beside the output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepArgs {
    /// `-MD` (or `-MMD`): write the dependency file.
    pub write: bool,
    /// `-MMD`: leave system headers out (under `--preprocess`).
    pub user_only: bool,
    /// `-MF FILE`: where (default: the output with `.d` for its extension).
    pub file: Option<PathBuf>,
    /// `-MT TARGET` (repeatable): the rule's targets (default: the output).
    pub targets: Vec<String>,
    /// `-MP`: a phony rule for every header.
    pub phony: bool,
}

/// `-Werror`, `-w`, `-Wno-CODE`, `-WCODE`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WarnArgs {
    /// `-Werror`: warnings count as errors (exit 1, no output).
    pub error: bool,
    /// `-w`: no warnings at all.
    pub none: bool,
    /// Each `-Wno-CODE` (true: off) or `-WCODE` (false: on again), in order.
    pub codes: Vec<(String, bool)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranslateArgs {
    pub input: Stream,
    pub output: Stream,
    pub emit: Emit,
    pub reduction_strategy: Strategy,
    pub diagnostics_format: Format,
    /// `--preprocess` (or any of `-I`, `-D`, `-U`): run the C preprocessor first.
    pub preprocess: bool,
    /// The preprocessor flags, in order, joined form: `-IDIR`, `-DNAME=VAL`, `-UNAME`.
    pub cpp_flags: Vec<OsString>,
    /// `--shared-budget BYTES`: shared memory for a team's staged variables.
    pub shared_budget: u64,
    /// `--max-input-size BYTES`: the largest input read (0: no limit).
    pub max_input_size: u64,
    /// `--max-errors N`: errors shown before the rest are counted (0: all).
    pub max_errors: usize,
    pub deps: DepArgs,
    pub warnings: WarnArgs,
    pub prelude: PreludeMode,
    /// `#line` directives in the CUDA output (`--no-line-directives`: none).
    pub line_directives: bool,
    /// `--ptxas` (with `--emit=plan-json`): registers and spills from `ptxas -v`.
    pub ptxas: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Version,
    Translate(Box<TranslateArgs>),
    Verify(VerifyArgs),
    Suite(SuiteArgs),
    /// `--explain CODE`: print the documentation of a diagnostic code.
    Explain(String),
    /// `--print-prelude`: write the prelude header to standard output.
    PrintPrelude,
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

#[derive(Parser, Debug)]
#[command(
    name = "pragma2cuda",
    disable_help_flag = true,
    disable_version_flag = true,
    args_override_self = true,
    color = clap::ColorChoice::Never
)]
struct Cli {
    /// INPUT.c, or `-` for standard input (one: more is an error of ours).
    input: Vec<OsString>,
    #[arg(short = 'o', long = "output", action = ArgAction::Append)]
    output: Vec<OsString>,
    #[arg(long, value_parser = parse_emit)]
    emit: Option<Emit>,
    #[arg(long = "reduction-strategy", value_parser = parse_strategy)]
    reduction_strategy: Option<Strategy>,
    #[arg(long = "shared-budget", value_parser = parse_budget)]
    shared_budget: Option<u64>,
    #[arg(long = "diagnostics-format", value_parser = parse_format)]
    diagnostics_format: Option<Format>,
    #[arg(long)]
    explain: Option<String>,
    #[arg(long = "max-errors", value_parser = parse_max_errors)]
    max_errors: Option<usize>,
    #[arg(long = "max-input-size", value_parser = parse_size)]
    max_input_size: Option<u64>,
    #[arg(long)]
    preprocess: bool,
    #[arg(short = 'I', action = ArgAction::Append, allow_hyphen_values = true)]
    include: Vec<OsString>,
    #[arg(short = 'D', action = ArgAction::Append)]
    define: Vec<OsString>,
    #[arg(short = 'U', action = ArgAction::Append)]
    undef: Vec<OsString>,
    #[arg(long = "MD", hide = true)]
    md: bool,
    #[arg(long = "MMD", hide = true)]
    mmd: bool,
    #[arg(long = "MF", hide = true)]
    mf: Option<PathBuf>,
    #[arg(long = "MT", hide = true, action = ArgAction::Append)]
    mt: Vec<String>,
    #[arg(long = "MP", hide = true)]
    mp: bool,
    #[arg(short = 'W', action = ArgAction::Append)]
    warn: Vec<String>,
    #[arg(short = 'w')]
    no_warnings: bool,
    #[arg(long, value_parser = ["embed", "include"])]
    prelude: Option<String>,
    #[arg(long = "print-prelude")]
    print_prelude: bool,
    #[arg(long = "no-line-directives")]
    no_line_directives: bool,
    #[arg(long)]
    ptxas: bool,
    #[arg(short = 'h', long = "help")]
    help: bool,
    #[arg(short = 'V', long = "version")]
    version: bool,
}

/// `pragma2cuda verify ...` or `pragma2cuda suite ...`.
#[derive(Parser, Debug)]
#[command(
    name = "pragma2cuda",
    disable_help_flag = true,
    disable_version_flag = true,
    args_override_self = true,
    color = clap::ColorChoice::Never
)]
struct ToolCli {
    #[command(subcommand)]
    sub: Sub,
}

#[derive(Subcommand, Debug)]
enum Sub {
    Verify {
        file: Option<PathBuf>,
        #[arg(long, value_parser = parse_device)]
        device: Option<Device>,
        #[arg(long)]
        keep: Option<PathBuf>,
        #[arg(long, value_parser = parse_count)]
        timeout: Option<u64>,
        #[arg(long)]
        preprocess: bool,
        #[arg(short = 'h', long = "help")]
        help: bool,
        #[arg(last = true)]
        extra: Vec<String>,
    },
    Suite {
        dir: Option<PathBuf>,
        list: Option<PathBuf>,
        #[arg(short = 'j', long, value_parser = parse_count)]
        jobs: Option<u64>,
        #[arg(long, value_parser = parse_device)]
        device: Option<Device>,
        #[arg(long, value_parser = parse_count)]
        timeout: Option<u64>,
        #[arg(long)]
        known: Option<PathBuf>,
        #[arg(short = 'h', long = "help")]
        help: bool,
        #[arg(last = true)]
        extra: Vec<String>,
    },
}

/// gcc's spellings that clap cannot read as written, as long options:
/// `-MD` -> `--MD`, `-MFfile` -> `--MF=file`, `-fmax-errors=N` -> `--max-errors=N`.
fn respell(args: Vec<OsString>) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len());
    let mut rest = false;
    for a in args {
        let s = a.to_str().unwrap_or("");
        if rest || s == "--" {
            rest = true;
            out.push(a);
            continue;
        }
        if let Some(v) = s.strip_prefix("-fmax-errors") {
            out.push(OsString::from(format!("--max-errors{v}")));
        } else if matches!(s, "-MD" | "-MMD" | "-MP" | "-MF" | "-MT") {
            out.push(OsString::from(format!("-{s}")));
        } else if s.len() > 3 && (s.starts_with("-MF") || s.starts_with("-MT")) {
            out.push(OsString::from(format!("-{}={}", &s[..3], &s[3..])));
        } else {
            out.push(a);
        }
    }
    out
}

/// Parses the arguments after the program name.
pub fn parse(args: Vec<OsString>) -> Result<Command, ParseError> {
    let usage = match args.first().and_then(|a| a.to_str()) {
        Some("verify") => USAGE_VERIFY,
        Some("suite") => USAGE_SUITE,
        _ => USAGE_TRANSLATE,
    };
    // `-- -` names a file called `-`, not standard input.
    let literal_dash = args
        .iter()
        .skip_while(|a| *a != "--")
        .skip(1)
        .any(|a| a == "-");
    let mut argv = vec![OsString::from("pragma2cuda")];
    argv.extend(respell(args));
    let clap_err = |e: clap::Error| ParseError {
        message: clap_message(&e),
        usage,
    };
    if usage != USAGE_TRANSLATE {
        let t = ToolCli::try_parse_from(argv).map_err(clap_err)?;
        return tool_command(t.sub, usage);
    }
    let m = Cli::command()
        .try_get_matches_from(argv)
        .map_err(clap_err)?;
    let cli = Cli::from_arg_matches(&m).map_err(clap_err)?;
    if cli.help {
        return Ok(Command::Help);
    }
    if cli.version {
        return Ok(Command::Version);
    }
    if let Some(code) = cli.explain {
        return Ok(Command::Explain(code));
    }
    if cli.print_prelude {
        return Ok(Command::PrintPrelude);
    }
    translate_args(cli, &m, literal_dash).map(|t| Command::Translate(Box::new(t)))
}

/// `verify` and `suite`.
fn tool_command(sub: Sub, usage: &'static str) -> Result<Command, ParseError> {
    match sub {
        Sub::Verify { help: true, .. } | Sub::Suite { help: true, .. } => Ok(Command::Help),
        Sub::Verify {
            file,
            device,
            keep,
            timeout,
            preprocess,
            extra,
            ..
        } => {
            let Some(file) = file else {
                return err(usage, "no file to verify");
            };
            Ok(Command::Verify(VerifyArgs {
                file,
                device: device.unwrap_or(Device::Auto),
                keep,
                timeout_secs: timeout.unwrap_or(60),
                extra,
                preprocess,
            }))
        }
        Sub::Suite {
            dir,
            list,
            jobs,
            device,
            timeout,
            known,
            extra,
            ..
        } => {
            let (Some(dir), Some(list)) = (dir, list) else {
                return err(usage, "suite takes a directory and a list file");
            };
            Ok(Command::Suite(SuiteArgs {
                dir,
                list,
                jobs: jobs.unwrap_or(2).min(256) as usize,
                device: device.unwrap_or(Device::Auto),
                timeout_secs: timeout.unwrap_or(60),
                known,
                extra,
            }))
        }
    }
}

fn translate_args(
    cli: Cli,
    m: &clap::ArgMatches,
    literal_dash: bool,
) -> Result<TranslateArgs, ParseError> {
    let u = USAGE_TRANSLATE;
    if let Some(extra) = cli.input.get(1) {
        let extra = extra.to_string_lossy();
        return err(
            u,
            format!("more than one input file (`{extra}`); translate one file at a time"),
        );
    }
    let input = match cli.input.into_iter().next() {
        None => return err(u, "no input file (use `-` to read standard input)"),
        Some(s) if s == "-" && !literal_dash => Stream::Std,
        Some(s) => Stream::Path(PathBuf::from(s)),
    };
    if cli.output.len() > 1 {
        return err(u, "option `-o` given more than once");
    }
    let output = match cli.output.into_iter().next() {
        None => Stream::Std,
        Some(v) if v == "-" => Stream::Std,
        Some(v) => Stream::Path(PathBuf::from(v)),
    };
    let cpp_flags = cpp_flags(m)?;
    let warnings = warn_args(&cli.warn, cli.no_warnings)?;
    let emit = cli.emit.unwrap_or_default();
    if cli.ptxas && emit != Emit::PlanJson {
        return err(
            u,
            "`--ptxas` adds ptxas' figures to `--emit=plan-json`; give both",
        );
    }
    Ok(TranslateArgs {
        input,
        output,
        emit,
        reduction_strategy: cli.reduction_strategy.unwrap_or_default(),
        diagnostics_format: cli.diagnostics_format.unwrap_or(Format::Human),
        preprocess: cli.preprocess || !cpp_flags.is_empty(),
        cpp_flags,
        shared_budget: cli
            .shared_budget
            .unwrap_or(pragma2cuda::lower::generic::DEFAULT_SHARED_BUDGET),
        max_input_size: cli.max_input_size.unwrap_or(DEFAULT_MAX_INPUT),
        max_errors: cli.max_errors.unwrap_or(DEFAULT_MAX_ERRORS),
        deps: DepArgs {
            write: cli.md || cli.mmd,
            user_only: cli.mmd,
            file: cli.mf,
            targets: cli.mt,
            phony: cli.mp,
        },
        warnings,
        prelude: match cli.prelude.as_deref() {
            Some("include") => PreludeMode::Include,
            _ => PreludeMode::Embed,
        },
        line_directives: !cli.no_line_directives,
        ptxas: cli.ptxas,
    })
}

/// The `-I`, `-D` and `-U` flags in the order given, each joined with its
/// value (`-IDIR`); a `-D` or `-U` value must start like a C identifier.
fn cpp_flags(m: &clap::ArgMatches) -> Result<Vec<OsString>, ParseError> {
    let mut all: Vec<(usize, &str, OsString)> = Vec::new();
    for (id, flag) in [("include", "-I"), ("define", "-D"), ("undef", "-U")] {
        let (Some(vals), Some(idx)) = (m.get_raw(id), m.indices_of(id)) else {
            continue;
        };
        for (v, i) in vals.zip(idx) {
            all.push((i, flag, v.to_os_string()));
        }
    }
    all.sort_by_key(|(i, _, _)| *i);
    all.into_iter()
        .map(|(_, flag, v)| cpp_flag(flag, v, USAGE_TRANSLATE))
        .collect()
}

/// `-I`/`-D`/`-U` and its value as one argument (`-IDIR`).
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
            let want = if flag == "-D" {
                "NAME or NAME=VALUE"
            } else {
                "a macro NAME"
            };
            return err(u, format!("`{flag} {v}`: expected {want}"));
        }
    }
    let mut f = OsString::from(flag);
    f.push(value);
    Ok(f)
}

/// `-W` values: `error`, `no-error`, `all`, `extra`, `CODE`, `no-CODE`
/// (`CODE` a warning code such as W0005, any case).
fn warn_args(values: &[String], none: bool) -> Result<WarnArgs, ParseError> {
    let mut w = WarnArgs {
        none,
        ..WarnArgs::default()
    };
    for v in values {
        match v.as_str() {
            "error" => w.error = true,
            "no-error" => w.error = false,
            "all" | "extra" => {}
            _ => {
                let (off, code) = match v.strip_prefix("no-") {
                    Some(c) => (true, c),
                    None => (false, v.as_str()),
                };
                let known = pragma2cuda::diag::codes::ALL.iter().any(|(c, _)| {
                    c.as_str().eq_ignore_ascii_case(code) && c.as_str().starts_with('W')
                });
                if !known {
                    return err(
                        USAGE_TRANSLATE,
                        format!("unknown warning option `-W{v}` (expected -Werror, -Wno-error, -WCODE or -Wno-CODE with a warning code such as W0005; `pragma2cuda --explain all` lists them)"),
                    );
                }
                w.codes.push((code.to_ascii_uppercase(), off));
            }
        }
    }
    Ok(w)
}

/// The first line of clap's message, without its `error: ` prefix.
fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or("").trim();
    first.strip_prefix("error: ").unwrap_or(first).to_string()
}

fn parse_emit(v: &str) -> Result<Emit, String> {
    match v {
        "cuda" => Ok(Emit::Cuda),
        "directives" => Ok(Emit::Directives),
        "directives-json" => Ok(Emit::DirectivesJson),
        "plan" => Ok(Emit::Plan),
        "plan-json" => Ok(Emit::PlanJson),
        "reductions" => Ok(Emit::Reductions),
        "sharing" => Ok(Emit::Sharing),
        "sharing-json" => Ok(Emit::SharingJson),
        _ => Err(format!(
            "unknown --emit value `{v}` (expected cuda, directives, directives-json, plan, plan-json, reductions, sharing or sharing-json)"
        )),
    }
}

fn parse_strategy(v: &str) -> Result<Strategy, String> {
    Strategy::parse(v).ok_or_else(|| {
        format!("unknown --reduction-strategy value `{v}` (expected tree, lock or atomic)")
    })
}

fn parse_format(v: &str) -> Result<Format, String> {
    match v {
        "human" => Ok(Format::Human),
        "gcc" => Ok(Format::Gcc),
        "json" => Ok(Format::Json),
        "sarif" => Ok(Format::Sarif),
        _ => Err(format!(
            "unknown --diagnostics-format value `{v}` (expected human, gcc, json or sarif)"
        )),
    }
}

fn parse_device(v: &str) -> Result<Device, String> {
    match v {
        "auto" => Ok(Device::Auto),
        "emulate" => Ok(Device::Emulate),
        "gpu" => Ok(Device::Gpu),
        _ => Err(format!(
            "unknown --device value `{v}` (expected auto, emulate or gpu)"
        )),
    }
}

fn parse_count(v: &str) -> Result<u64, String> {
    match v.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("needs a positive whole number, not `{v}`")),
    }
}

fn parse_budget(v: &str) -> Result<u64, String> {
    match v.parse::<u64>() {
        Ok(b) if b <= 48 * 1024 => Ok(b),
        _ => Err(format!("--shared-budget needs a byte count from 0 to 49152 (static shared memory per block), not `{v}`")),
    }
}

fn parse_max_errors(v: &str) -> Result<usize, String> {
    v.parse::<usize>()
        .map_err(|_| format!("--max-errors needs a whole number (0: no limit), not `{v}`"))
}

/// `4096`, `64K`, `256M`, `1G` (binary units) as bytes.
fn parse_size(v: &str) -> Result<u64, String> {
    let bad = || {
        format!("--max-input-size needs a byte count (a whole number, optionally with K, M or G), not `{v}`")
    };
    let (digits, shift) = match v.as_bytes().last() {
        Some(b'K' | b'k') => (&v[..v.len() - 1], 10),
        Some(b'M' | b'm') => (&v[..v.len() - 1], 20),
        Some(b'G' | b'g') => (&v[..v.len() - 1], 30),
        _ => (v, 0),
    };
    let n: u64 = digits.parse().map_err(|_| bad())?;
    n.checked_mul(1u64 << shift).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, ParseError> {
        parse(args.iter().map(OsString::from).collect())
    }

    fn t(args: &[&str]) -> TranslateArgs {
        match p(args) {
            Ok(Command::Translate(t)) => *t,
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
        assert_eq!(t(&["--", "-"]).input, Stream::Path("-".into()));
        assert_eq!(t(&["./verify"]).input, Stream::Path("./verify".into()));
    }

    #[test]
    fn emit_and_format_values() {
        assert_eq!(t(&["--emit=plan", "x.c"]).emit, Emit::Plan);
        assert!(t(&["--emit=plan-json", "--ptxas", "x.c"]).ptxas);
        assert!(!t(&["--emit=plan-json", "x.c"]).ptxas);
        let e = p(&["--ptxas", "x.c"]).unwrap_err();
        assert!(e.message.contains("--emit=plan-json"), "{}", e.message);
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
        assert_eq!(
            t(&["--diagnostics-format=sarif", "x.c"]).diagnostics_format,
            Format::Sarif
        );
        assert_eq!(t(&["x.c"]).diagnostics_format, Format::Human);
        assert_eq!(t(&["--shared-budget=0", "x.c"]).shared_budget, 0);
        assert_eq!(t(&["--shared-budget", "4096", "x.c"]).shared_budget, 4096);
        assert_eq!(t(&["x.c"]).shared_budget, 32768);
        assert_eq!(t(&["--max-input-size=64K", "x.c"]).max_input_size, 65536);
        assert_eq!(t(&["--max-errors", "3", "x.c"]).max_errors, 3);
        assert_eq!(t(&["-fmax-errors=7", "x.c"]).max_errors, 7);
        assert_eq!(t(&["x.c"]).max_errors, DEFAULT_MAX_ERRORS);
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
            &["-Wbogus", "x.c"],
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
        // -I, -D and -U imply --preprocess.
        assert!(t(&["-DX", "x.c"]).preprocess);
        assert!(t(&["-Iinc", "x.c"]).preprocess);
        for bad in [
            &["--preprocess", "x.c", "-D"][..],
            &["--preprocess", "-D", "=1", "x.c"],
            &["--preprocess", "-D2X", "x.c"],
            &["--preprocess", "-UX=1", "x.c"],
            &["--preprocess", "-I", "", "x.c"],
        ] {
            assert!(p(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn dependency_and_warning_flags() {
        let a = t(&["-MD", "-MF", "x.d", "-MT", "obj/x.cu", "-MP", "x.c"]);
        assert!(a.deps.write && a.deps.phony && !a.deps.user_only);
        assert_eq!(a.deps.file, Some(PathBuf::from("x.d")));
        assert_eq!(a.deps.targets, ["obj/x.cu"]);
        let a = t(&["-MMD", "-MFy.d", "-MTt", "x.c"]);
        assert!(a.deps.write && a.deps.user_only);
        assert_eq!(a.deps.file, Some(PathBuf::from("y.d")));
        assert_eq!(a.deps.targets, ["t"]);
        let a = t(&["-Werror", "-Wno-w0005", "-WW0005", "-w", "x.c"]);
        assert!(a.warnings.error && a.warnings.none);
        assert_eq!(
            a.warnings.codes,
            [("W0005".to_string(), true), ("W0005".to_string(), false)]
        );
        assert_eq!(
            t(&["--prelude=include", "x.c"]).prelude,
            PreludeMode::Include
        );
        assert_eq!(t(&["x.c"]).prelude, PreludeMode::Embed);
        assert!(t(&["x.c"]).line_directives);
        assert!(!t(&["--no-line-directives", "x.c"]).line_directives);
    }

    #[test]
    fn help_and_version() {
        assert_eq!(p(&["--help"]), Ok(Command::Help));
        assert_eq!(p(&["x.c", "-h"]), Ok(Command::Help));
        assert_eq!(p(&["-V"]), Ok(Command::Version));
        assert_eq!(p(&["verify", "--help"]), Ok(Command::Help));
        assert_eq!(p(&["--print-prelude"]), Ok(Command::PrintPrelude));
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

    /// Every option clap knows is explained in the help text.
    #[test]
    fn help_names_every_option() {
        for a in Cli::command().get_arguments() {
            if a.is_hide_set() {
                continue;
            }
            if let Some(l) = a.get_long() {
                assert!(HELP.contains(&format!("--{l}")), "--{l} not in the help");
            } else if let Some(s) = a.get_short() {
                assert!(HELP.contains(&format!("-{s}")), "-{s} not in the help");
            }
        }
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
        let Ok(Command::Suite(s)) = p(&[
            "suite", "d", "l.tsv", "-j", "3", "--known", "k.tsv", "--", "-Iinc",
        ]) else {
            panic!("suite did not parse")
        };
        assert_eq!(
            (s.dir, s.list, s.jobs, s.known),
            (
                PathBuf::from("d"),
                PathBuf::from("l.tsv"),
                3,
                Some(PathBuf::from("k.tsv"))
            )
        );
        assert_eq!(s.extra, vec!["-Iinc".to_string()]);
    }
}
