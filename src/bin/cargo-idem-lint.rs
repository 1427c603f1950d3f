//! `cargo idem-lint …`: cargo runs this binary with `idem-lint` as the first argument.

// The same allocator as `idem-lint` (see src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "idem-lint") {
        args.remove(1);
    }
    std::process::exit(idem_lint::cli::run(args));
}
