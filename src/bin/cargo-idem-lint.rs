//! `cargo idem-lint …`: cargo runs this binary with `idem-lint` as the first argument.

#[path = "../allocator.rs"]
mod allocator;

fn main() {
    allocator::install();
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "idem-lint") {
        args.remove(1);
    }
    std::process::exit(idem_lint::cli::run_cargo(args));
}
