//! The `idem-lint` command.

#[path = "allocator.rs"]
mod allocator;

fn main() {
    allocator::install();
    std::process::exit(idem_lint::cli::run(std::env::args_os()));
}
