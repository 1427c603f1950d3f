//! The `idem-lint` command.

fn main() {
    std::process::exit(idem_lint::cli::run(std::env::args_os()));
}
