//! The `pragma2cuda` command line: argument parsing, reading the input,
//! writing the output atomically, and the `verify` / `suite` subcommands.
//!
//! This is the binary's side: `main.rs` calls [`run`], which returns the exit
//! code. Everything it calls (translation, files, the preprocessor, the
//! tools) is the library's API.
//!
//! Exit codes: 0 success (warnings allowed), 1 the diagnostics contain errors
//! (or, for `verify`/`suite`, a program disagreed or failed; or the
//! preprocessor of `--preprocess` reported an error), 2 usage or I/O error
//! (or the preprocessor cannot be run).

mod args;
mod deps;
mod help;
mod warnings;

use args::{parse, Command, TranslateArgs};
use pragma2cuda::diag::{self, Diagnostic, Format};
use pragma2cuda::files::{
    check_not_input, check_output, preprocess, read_input_limited, write_atomic,
};
use pragma2cuda::source::{SourceFile, Span};
use pragma2cuda::tools::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};

/// Runs the command line `args` (without the program name) and returns the
/// process exit code. Writes diagnostics to stderr and output to stdout or a file.
pub fn run(args: Vec<OsString>) -> i32 {
    match parse(args) {
        Ok(Command::Help) => {
            print!("{}", args::HELP);
            EXIT_OK
        }
        Ok(Command::Version) => {
            println!("pragma2cuda {}", version());
            EXIT_OK
        }
        Ok(Command::PrintPrelude) => {
            let header = pragma2cuda::emit::prelude::header();
            match write_atomic(&pragma2cuda::files::Stream::Std, header.as_bytes()) {
                Ok(()) => EXIT_OK,
                Err((_, msg)) => {
                    eprintln!("error: {msg}");
                    EXIT_USAGE
                }
            }
        }
        Ok(Command::Translate(t)) => translate(&t),
        Ok(Command::Verify(v)) => pragma2cuda::tools::verify::main(&v),
        Ok(Command::Suite(s)) => pragma2cuda::tools::suite::main(&s),
        Ok(Command::Explain(code)) => explain(&code),
        Err(e) => {
            eprintln!("error: {}", e.message);
            eprintln!("usage: {}", e.usage);
            eprintln!("Try 'pragma2cuda --help' for more information.");
            EXIT_USAGE
        }
    }
}

/// The release version, and the commit when built from a git checkout
/// (`build.rs`): `0.1.0 (commit 1a2b3c4d5e6f)`.
fn version() -> String {
    match option_env!("P2C_GIT_COMMIT") {
        Some(c) if !c.is_empty() => format!("{} (commit {c})", env!("CARGO_PKG_VERSION")),
        _ => env!("CARGO_PKG_VERSION").to_string(),
    }
}

/// `--explain CODE`: the code's documentation on stdout; `all` lists every code.
fn explain(code: &str) -> i32 {
    if code.eq_ignore_ascii_case("all") {
        for (c, doc) in diag::codes::ALL {
            println!("{}  {doc}", c.as_str());
        }
        return EXIT_OK;
    }
    match pragma2cuda::valid::explain(code) {
        Some(text) => {
            print!("{text}");
            EXIT_OK
        }
        None => {
            eprintln!(
                "error: unknown diagnostic code `{code}` (`pragma2cuda --explain all` lists them)"
            );
            EXIT_USAGE
        }
    }
}

/// Whether human diagnostics on stderr should be colored.
fn stderr_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The diagnostics up to and including the `max`-th error (0: all), and
/// after them one E0006 counting the errors and warnings left out.
fn cap_errors(diags: &[Diagnostic], max: usize) -> std::borrow::Cow<'_, [Diagnostic]> {
    let mut errors = 0;
    let cut = diags.iter().position(|d| {
        errors += usize::from(d.is_error());
        max > 0 && errors > max
    });
    let Some(cut) = cut else {
        return std::borrow::Cow::Borrowed(diags);
    };
    let rest = &diags[cut..];
    let hidden_errors = rest.iter().filter(|d| d.is_error()).count();
    let hidden_other = rest.len() - hidden_errors;
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let mut what = format!("{hidden_errors} more error{}", s(hidden_errors));
    if hidden_other > 0 {
        what = format!("{what} and {hidden_other} warning{}", s(hidden_other));
    }
    let mut shown = diags[..cut].to_vec();
    let mut d = Diagnostic::new(
        diag::codes::TOO_MANY_ERRORS,
        rest[0].primary_span(),
        format!("{what} not shown (--max-errors {max}; 0 shows all)"),
    );
    d.labels.clear();
    shown.push(d);
    std::borrow::Cow::Owned(shown)
}

fn print_diagnostics(file: &SourceFile, diags: &[Diagnostic], format: Format) {
    if diags.is_empty() && !matches!(format, Format::Json | Format::Sarif) {
        return;
    }
    let text = diag::render(
        file,
        diags,
        format,
        format == Format::Human && stderr_color(),
    );
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

/// Reports an I/O problem as a located diagnostic (at the start of the named
/// file, which may be empty or absent) in the requested format.
fn report_io(name: &str, code: diag::Code, message: String, format: Format) {
    let file = SourceFile::new(name, "");
    let mut d = Diagnostic::new(code, Span::new(0, 0), message);
    if format == Format::Human {
        // The file has no text to show: one line, no empty snippet.
        d.labels.clear();
    }
    print_diagnostics(&file, &[d], format);
}

fn translate(t: &TranslateArgs) -> i32 {
    let format = t.diagnostics_format;
    // Fail before reading and translating when the result could not be written anyway.
    if let Err((name, msg)) =
        check_output(&t.output).and_then(|()| check_not_input(&t.input, &t.output))
    {
        report_io(&name, diag::codes::IO_WRITE, msg, format);
        return EXIT_USAGE;
    }
    let dep_plan = match deps::plan(t) {
        Ok(p) => p,
        Err(msg) => {
            eprintln!("error: {msg}");
            return EXIT_USAGE;
        }
    };
    let file = match read_input_limited(&t.input, t.max_input_size) {
        Ok(f) => f,
        Err((name, msg)) => {
            report_io(&name, diag::codes::IO_READ, msg, format);
            return EXIT_USAGE;
        }
    };
    let (file, headers) = if t.preprocess {
        match preprocess::preprocess_with_headers(&t.input, &file, &t.cpp_flags) {
            Ok((f, h)) => (f, deps::preprocessed(&h, t.deps.user_only)),
            Err(preprocess::CppError::CannotRun(msg)) => {
                report_io(&file.name, diag::codes::PREPROCESSOR, msg, format);
                return EXIT_USAGE;
            }
            Err(preprocess::CppError::Failed(msg)) => {
                report_io(&file.name, diag::codes::PREPROCESSOR, msg, format);
                return EXIT_ERRORS;
            }
        }
    } else {
        let h = deps::quoted(&t.input, &file, dep_plan.is_some());
        (file, h)
    };
    let opts = pragma2cuda::Options {
        emit: t.emit,
        reduction_strategy: t.reduction_strategy,
        shared_budget: t.shared_budget,
        prelude: t.prelude,
        line_directives: t.line_directives,
        output_name: match &t.output {
            pragma2cuda::files::Stream::Path(p) => Some(p.to_string_lossy().into_owned()),
            pragma2cuda::files::Stream::Std => None,
        },
    };
    let mut result = pragma2cuda::translate(&file, &opts);
    warnings::apply(&mut result.diagnostics, &t.warnings);
    let has_errors = result.has_errors();
    if let std::borrow::Cow::Owned(d) = cap_errors(&result.diagnostics, t.max_errors) {
        result.diagnostics = d;
    }
    print_diagnostics(&file, &result.diagnostics, format);
    if let (Some(plan), false, true) = (&result.output, has_errors, t.ptxas) {
        match ptxas_plan(&file, &opts, plan) {
            Ok(p) => result.output = Some(p),
            Err(e) => {
                eprintln!("error: --ptxas: {e}");
                return EXIT_ERRORS;
            }
        }
    }
    match (&result.output, has_errors) {
        (Some(text), false) => {
            let written = write_atomic(&t.output, text.as_bytes())
                .and_then(|()| dep_plan.map_or(Ok(()), |p| p.write(&file.name, &headers)));
            match written {
                Ok(()) => EXIT_OK,
                Err((name, msg)) => {
                    report_io(&name, diag::codes::IO_WRITE, msg, format);
                    EXIT_USAGE
                }
            }
        }
        (_, true) => EXIT_ERRORS,
        (None, false) => {
            // The translator promised output or an error; it gave neither.
            eprintln!(
                "error: internal: the translator produced no output and reported no error for `{}`",
                file.name
            );
            EXIT_ERRORS
        }
    }
}

/// `plan` (plan-json) with each kernel's ptxas figures: the file translated
/// to CUDA (no `#line`) and compiled by nvcc `-Xptxas -v`.
fn ptxas_plan(
    file: &SourceFile,
    opts: &pragma2cuda::Options,
    plan: &str,
) -> Result<String, String> {
    let cuda_opts = pragma2cuda::Options {
        emit: pragma2cuda::Emit::Cuda,
        line_directives: false,
        prelude: pragma2cuda::emit::prelude::Mode::Embed,
        output_name: None,
        ..opts.clone()
    };
    let cuda = pragma2cuda::translate(file, &cuda_opts)
        .output
        .ok_or("the file did not translate to CUDA")?;
    let tc = pragma2cuda::tools::verify::Toolchain::from_env();
    let kernels = pragma2cuda::tools::ptxas::figures(&cuda, &tc)?;
    pragma2cuda::tools::ptxas::annotate(plan, &kernels)
}
