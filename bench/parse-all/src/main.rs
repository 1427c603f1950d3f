//! Baseline for the benchmark: the cost of merely parsing every `.rs` file
//! under the given directories with syn and touching every node.
//!
//! Usage: `parse-all [--jobs N] [--max-file-size BYTES] DIR...`

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use syn::visit::Visit;

/// Counts every node so the visit cannot be optimised away.
#[derive(Default)]
struct Count(usize);

impl<'ast> Visit<'ast> for Count {
    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        self.0 += 1;
        syn::visit::visit_expr(self, e);
    }
    fn visit_item(&mut self, i: &'ast syn::Item) {
        self.0 += 1;
        syn::visit::visit_item(self, i);
    }
    fn visit_ident(&mut self, _: &'ast proc_macro2::Ident) {
        self.0 += 1;
    }
    fn visit_type(&mut self, t: &'ast syn::Type) {
        self.0 += 1;
        syn::visit::visit_type(self, t);
    }
    fn visit_pat(&mut self, p: &'ast syn::Pat) {
        self.0 += 1;
        syn::visit::visit_pat(self, p);
    }
}

fn main() {
    let mut jobs = 0;
    let mut max = u64::MAX;
    let mut roots = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--jobs" => jobs = args.next().and_then(|j| j.parse().ok()).unwrap_or(0),
            "--max-file-size" => max = args.next().and_then(|j| j.parse().ok()).unwrap_or(max),
            _ => roots.push(PathBuf::from(arg)),
        }
    }
    let mut files = Vec::new();
    for root in &roots {
        // Same walk as idem-lint: gitignore-aware, hidden and target/ skipped.
        for entry in ignore::WalkBuilder::new(root).require_git(false).build().flatten() {
            if entry.file_type().is_some_and(|t| t.is_file())
                && entry.path().extension().is_some_and(|e| e == "rs")
            {
                files.push(entry.into_path());
            }
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(256 << 20)
        .build()
        .expect("thread pool");
    let nodes = AtomicUsize::new(0);
    let failed = AtomicUsize::new(0);
    let skipped = AtomicUsize::new(0);
    pool.install(|| {
        files.par_iter().for_each(|path| {
            let Ok(text) = std::fs::read(path) else {
                failed.fetch_add(1, Ordering::Relaxed);
                return;
            };
            if text.len() as u64 > max {
                skipped.fetch_add(1, Ordering::Relaxed);
                return;
            }
            let Ok(text) = String::from_utf8(text) else {
                failed.fetch_add(1, Ordering::Relaxed);
                return;
            };
            match syn::parse_file(&text) {
                Ok(ast) => {
                    let mut count = Count::default();
                    count.visit_file(&ast);
                    nodes.fetch_add(count.0, Ordering::Relaxed);
                }
                Err(_) => {
                    failed.fetch_add(1, Ordering::Relaxed);
                }
            }
            proc_macro2::extra::invalidate_current_thread_spans();
        });
    });
    println!(
        "files={} nodes={} unparsable={} skipped={}",
        files.len(),
        nodes.into_inner(),
        failed.into_inner(),
        skipped.into_inner()
    );
}
