//! Per-file work of one unit spread over scoped threads of its own.
//!
//! A unit is analysed on one thread of the pool, and must not wait on the
//! pool while it holds a memory lease (`memory_budget`): the waiting thread
//! could steal another unit. A service is often one large unit, analysed
//! while the pool's other threads have nothing to do, so the per-file work
//! that needs no syntax tree (the pre-filter's token scans, which are most
//! of planning) runs on plain scoped threads instead. Syntax trees stay on
//! the unit's thread: their spans are thread-local (`span-locations`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

/// Below this many bytes a unit's files are scanned on its own thread: a
/// thread costs about as much as scanning 50 KB.
pub const MIN_BYTES: usize = 512 * 1024;

/// `f` of every index of `weights`, in order, on up to `threads` threads
/// (the caller's one included), each given a run of consecutive indices
/// of about equal total weight (bytes of text). Small totals, one thread,
/// or a thread that cannot be started: all on the caller's thread.
pub fn map<T, F>(weights: &[usize], threads: usize, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    let total: usize = weights.iter().sum();
    let threads = threads
        .min(weights.len())
        .min(total / (MIN_BYTES / 2))
        .max(1);
    if threads == 1 || total < MIN_BYTES {
        return (0..weights.len()).map(f).collect();
    }
    let runs = runs(weights, threads);
    let f = &f;
    thread::scope(|scope| {
        let mut spawned = Vec::new();
        let mut own = None;
        for run in runs {
            if own.is_none() {
                own = Some(run);
                continue;
            }
            let mine = run.clone();
            let started = thread::Builder::new()
                .name("idem-lint-scan".into())
                .spawn_scoped(scope, move || mine.map(f).collect::<Vec<T>>());
            match started {
                Ok(handle) => spawned.push((run, Some(handle))),
                Err(_) => spawned.push((run, None)),
            }
        }
        let mut out: Vec<T> = own.map(|run| run.map(f).collect()).unwrap_or_default();
        for (run, handle) in spawned {
            // A thread that panicked or never started: its run again here,
            // where a panic reaches the unit's own guard (an IDEM000).
            match handle.map(|h| h.join()) {
                Some(Ok(part)) => out.extend(part),
                _ => out.extend(run.map(f)),
            }
        }
        out
    })
}

/// Whether `f` holds for any index of `weights`, asked as [`map`] does;
/// once one thread finds one, every thread stops asking.
pub fn any<F>(weights: &[usize], threads: usize, f: F) -> bool
where
    F: Fn(usize) -> bool + Sync,
{
    let found = AtomicBool::new(false);
    let asked = map(weights, threads, |n| {
        let hit = !found.load(Ordering::Relaxed) && f(n);
        if hit {
            found.store(true, Ordering::Relaxed);
        }
        hit
    });
    asked.contains(&true)
}

/// `threads` runs of consecutive indices covering `weights`, each about a
/// `threads`th of the total (a run holds at least one index).
fn runs(weights: &[usize], threads: usize) -> Vec<std::ops::Range<usize>> {
    let total: usize = weights.iter().sum();
    let mut runs = Vec::with_capacity(threads);
    let mut start = 0;
    let mut sum = 0;
    for (n, w) in weights.iter().enumerate() {
        sum += w;
        let target = total * (runs.len() + 1) / threads;
        if sum >= target && runs.len() + 1 < threads && n + 1 < weights.len() {
            runs.push(start..n + 1);
            start = n + 1;
        }
    }
    runs.push(start..weights.len());
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_order_of_the_inputs() {
        let weights = vec![MIN_BYTES / 4; 40];
        let out = map(&weights, 3, |n| n * 2);
        assert_eq!(out, (0..40).map(|n| n * 2).collect::<Vec<_>>());
    }

    #[test]
    fn runs_split_by_weight_and_cover_every_index() {
        assert_eq!(runs(&[10, 10, 10, 10], 2), [0..2, 2..4]);
        assert_eq!(runs(&[100, 1, 1, 1], 2), [0..1, 1..4]);
        // One file heavier than the rest together cannot be split.
        assert_eq!(runs(&[1, 1, 1, 100], 2), vec![(0..4)]);
        assert_eq!(runs(&[5], 4), vec![(0..1)]);
        assert_eq!(runs(&[], 2), vec![(0..0)]);
    }

    #[test]
    fn any_finds_a_hit_in_any_run() {
        let weights = vec![MIN_BYTES / 2; 9];
        assert!(any(&weights, 3, |n| n == 7));
        assert!(any(&weights, 3, |n| n == 0));
        assert!(!any(&weights, 3, |_| false));
        assert!(!any(&[], 3, |_| true));
    }

    #[test]
    fn small_inputs_stay_on_the_callers_thread() {
        let caller = thread::current().id();
        let out = map(&[10, 10, 10], 4, |_| thread::current().id() == caller);
        assert_eq!(out, [true, true, true]);
    }

    #[test]
    fn a_panicking_run_is_done_again_on_the_callers_thread() {
        let caller = thread::current().id();
        let weights = vec![MIN_BYTES; 4];
        let out = map(&weights, 2, |n| {
            assert!(n < 2 || thread::current().id() == caller, "spawned");
            n
        });
        assert_eq!(out, [0, 1, 2, 3]);
    }
}
