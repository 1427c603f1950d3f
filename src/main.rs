//! The `idem-lint` command.

// Parsing allocates and frees millions of small syntax nodes on every
// worker thread; mimalloc's thread-local heaps do that far faster than the
// system allocator: 13.2 s → 12.0 s on the bench corpus (bench/run.sh).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(idem_lint::cli::run(std::env::args_os()));
}
