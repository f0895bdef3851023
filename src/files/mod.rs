//! Files in and out of a translation: reading the input (bounded, text only),
//! writing the output atomically, and running the C preprocessor of
//! `--preprocess`. The command line (the binary) and the tools (`verify`,
//! `suite`) both call these; nothing here parses arguments.

pub mod deps;
pub mod input;
mod io;
mod output;
pub mod preprocess;

pub use input::{read_bounded, read_input, read_input_limited, DEFAULT_MAX_INPUT};
pub use io::{check_not_input, check_output, io_message, write_atomic};
use std::path::PathBuf;

/// Where the input comes from or the output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stream {
    Std,
    Path(PathBuf),
}

/// The input: a file or standard input.
pub type Input = Stream;
/// The output: a file or standard output.
pub type Output = Stream;
