//! The `pragma2cuda` binary: the command line (`cli/`, on clap) over the
//! library's API.

mod cli;

fn main() {
    std::process::exit(cli::run(std::env::args_os().skip(1).collect()));
}
