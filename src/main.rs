//! The `pragma2cuda` binary: all logic lives in [`pragma2cuda::cli`].

fn main() {
    std::process::exit(pragma2cuda::cli::run(std::env::args_os().skip(1).collect()));
}
