//! The `pragma2cuda` binary: the command line (`cli/`, on clap) over the
//! library's API.

mod cli;

fn main() {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    // `pragma2cuda lsp`: the language server over stdio (issue 19).
    if args.len() == 1 && args[0] == "lsp" {
        std::process::exit(pragma2cuda::lsp::run_stdio());
    }
    std::process::exit(cli::run(args));
}
