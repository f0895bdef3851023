//! The `pragma2cuda` binary: all logic lives in [`pragma2cuda::cli`].

fn main() {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    // `pragma2cuda lsp`: the language server (issue 19).
    if args.len() == 1 && args[0] == "lsp" {
        std::process::exit(pragma2cuda::lsp::run_stdio());
    }
    std::process::exit(pragma2cuda::cli::run(args));
}
