//! The `pragma2cuda` command line: argument parsing, reading the input,
//! writing the output atomically, and the `verify` / `suite` subcommands.
//!
//! `main.rs` only calls [`run`]; everything here returns an exit code instead
//! of exiting so the CLI can be tested in-process as well as as a binary.
//!
//! Exit codes: 0 success (warnings allowed), 1 the diagnostics contain errors
//! (or, for `verify`/`suite`, a program disagreed or failed; or the
//! preprocessor of `--preprocess` reported an error), 2 usage or I/O error
//! (or the preprocessor cannot be run).

mod args;
pub mod input;
mod io;
mod output;
pub(crate) mod preprocess;

pub use args::{parse, Command, ParseError, SuiteArgs, TranslateArgs, VerifyArgs};
pub use input::{read_bounded, read_input_limited, DEFAULT_MAX_INPUT};
pub use io::{check_not_input, check_output, io_message, read_input, write_atomic, Input, Output};

use crate::diag::{self, Diagnostic, Format};
use crate::source::{SourceFile, Span};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};

pub const EXIT_OK: i32 = 0;
pub const EXIT_ERRORS: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

/// The default of `--max-errors`, gcc's `-fmax-errors` idea.
pub const DEFAULT_MAX_ERRORS: usize = 50;

/// Runs the command line `args` (without the program name) and returns the
/// process exit code. Writes diagnostics to stderr and output to stdout or a file.
pub fn run(args: Vec<OsString>) -> i32 {
    match parse(args) {
        Ok(Command::Help) => {
            print!("{}", args::HELP);
            EXIT_OK
        }
        Ok(Command::Version) => {
            println!("pragma2cuda {}", env!("CARGO_PKG_VERSION"));
            EXIT_OK
        }
        Ok(Command::Translate(t)) => translate(&t),
        Ok(Command::Verify(v)) => crate::tools::verify::main(&v),
        Ok(Command::Suite(s)) => crate::tools::suite::main(&s),
        Ok(Command::Explain(code)) => explain(&code),
        Err(e) => {
            eprintln!("error: {}", e.message);
            eprintln!("usage: {}", e.usage);
            eprintln!("Try 'pragma2cuda --help' for more information.");
            EXIT_USAGE
        }
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
    match crate::valid::explain(code) {
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
pub fn cap_errors(diags: &[Diagnostic], max: usize) -> std::borrow::Cow<'_, [Diagnostic]> {
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
    if diags.is_empty() && format != Format::Json {
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
pub fn report_io(name: &str, code: crate::diag::Code, message: String, format: Format) {
    let file = SourceFile::new(name, "");
    let mut d = Diagnostic::new(code, Span::new(0, 0), message);
    if format == Format::Human {
        // The file has no text to show: one line, no empty snippet.
        d.labels.clear();
    }
    print_diagnostics(&file, &[d], format);
}

fn translate(t: &TranslateArgs) -> i32 {
    // Fail before reading and translating when the result could not be written anyway.
    if let Err((name, msg)) =
        check_output(&t.output).and_then(|()| check_not_input(&t.input, &t.output))
    {
        report_io(&name, diag::codes::IO_WRITE, msg, t.diagnostics_format);
        return EXIT_USAGE;
    }
    let file = match read_input_limited(&t.input, t.max_input_size) {
        Ok(f) => f,
        Err((name, msg)) => {
            report_io(&name, diag::codes::IO_READ, msg, t.diagnostics_format);
            return EXIT_USAGE;
        }
    };
    let file = if t.preprocess {
        match preprocess::preprocess(&t.input, &file, &t.cpp_flags) {
            Ok(f) => f,
            Err(preprocess::CppError::CannotRun(msg)) => {
                report_io(
                    &file.name,
                    diag::codes::PREPROCESSOR,
                    msg,
                    t.diagnostics_format,
                );
                return EXIT_USAGE;
            }
            Err(preprocess::CppError::Failed(msg)) => {
                report_io(
                    &file.name,
                    diag::codes::PREPROCESSOR,
                    msg,
                    t.diagnostics_format,
                );
                return EXIT_ERRORS;
            }
        }
    } else {
        file
    };
    let opts = crate::Options {
        emit: t.emit,
        reduction_strategy: t.reduction_strategy,
        shared_budget: t.shared_budget,
    };
    let mut result = crate::translate(&file, &opts);
    let has_errors = result.has_errors();
    if let std::borrow::Cow::Owned(d) = cap_errors(&result.diagnostics, t.max_errors) {
        result.diagnostics = d;
    }
    match (&result.output, has_errors) {
        (Some(text), false) => {
            print_diagnostics(&file, &result.diagnostics, t.diagnostics_format);
            match write_atomic(&t.output, text.as_bytes()) {
                Ok(()) => EXIT_OK,
                Err((name, msg)) => {
                    report_io(&name, diag::codes::IO_WRITE, msg, t.diagnostics_format);
                    EXIT_USAGE
                }
            }
        }
        (_, true) => {
            print_diagnostics(&file, &result.diagnostics, t.diagnostics_format);
            EXIT_ERRORS
        }
        (None, false) => {
            // The translator promised output or an error; it gave neither.
            print_diagnostics(&file, &result.diagnostics, t.diagnostics_format);
            eprintln!(
                "error: internal: the translator produced no output and reported no error for `{}`",
                file.name
            );
            EXIT_ERRORS
        }
    }
}
