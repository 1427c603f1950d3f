//! A bound on the memory that units analysed at once may use.
//!
//! A run's peak memory is set by the units that happen to be analysed
//! together: one 13 MB crate whose 1.7 MB of selected code is parsed needs
//! about 100 MB, a mid-sized one 60 MB, while most need a few. Each unit
//! estimates its need from its size and leases that much of a shared budget
//! before the work that needs it. Units start largest first
//! ([`run_largest_first`]): a free thread takes the largest unit that fits
//! in what the running ones leave, so small units run beside a large one
//! and threads rarely idle; two large ones never run together, and the
//! largest do not come last, when one thread would work alone. A running
//! unit that grows (to parse what it selected) never waits: the budget
//! gates when units start, not how far a started one goes.
//!
//! A unit must not wait on the thread pool (rayon `join`, nested parallel
//! iterators) while it holds a lease: the waiting thread could steal
//! another unit, whose lease might wait for the first one's forever.
//!
//! The estimates are resident bytes measured on the bench corpus
//! (`bench/run.sh`) with the binaries' allocator, not exact sizes: the
//! budget bounds the peak, it does not account for every allocation.

use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex};

/// Resident bytes per byte of Rust text while a unit is read and
/// pre-filtered: the text itself and the scan's tokens and items
/// (1.9–3.5× on the corpus' largest crates).
pub const PER_TEXT_BYTE: usize = 3;

/// Resident bytes per byte of Rust parsed: syntax trees, span locations
/// (a second copy of the text) and the analysis' facts (about 60× on the
/// corpus: tokio, brotli and aws-sdk-s3 alike).
pub const PER_PARSED_BYTE: usize = 60;

/// Resident bytes of any unit being analysed, however small: its thread's
/// allocator pages, stack and span table.
pub const PER_UNIT: usize = 4 * 1024 * 1024;

/// Estimated bytes that units analysed at once may lease in total. With the
/// process' own 10–15 MB this keeps the bench corpus' peak near 95 MB; a
/// larger budget runs more of its big crates together (at 120 MB: 5% less
/// time, 120 MB peak).
pub const TOTAL: usize = 90 * 1024 * 1024;

/// The most one unit leases when it starts: a larger estimate is clamped to
/// it, so that small units keep running beside the largest ones instead of
/// waiting for them (the estimates are upper bounds of what a unit holds).
pub const LARGEST: usize = TOTAL - 8 * 1024 * 1024;

/// The estimated need of a unit holding `text` bytes of Rust in memory
/// (reading, pre-filtering) and parsing `parsed` bytes.
pub fn estimate(text: usize, parsed: usize) -> usize {
    PER_UNIT
        .saturating_add(PER_TEXT_BYTE.saturating_mul(text))
        .saturating_add(PER_PARSED_BYTE.saturating_mul(parsed))
}

/// The budget shared by all units of a run.
#[derive(Debug, Default)]
pub struct Budget {
    leased: Mutex<usize>,
    returned: Condvar,
}

/// A part of the budget, given back on drop.
#[derive(Debug)]
pub struct Lease<'a> {
    budget: &'a Budget,
    bytes: usize,
}

impl Budget {
    /// Waits until `bytes` (at most the whole budget) are free and leases them.
    pub fn lease(&self, bytes: usize) -> Lease<'_> {
        let bytes = bytes.min(TOTAL);
        // A panic while holding the lock leaves a consistent count.
        let mut leased = self.leased.lock().unwrap_or_else(|p| p.into_inner());
        while *leased + bytes > TOTAL {
            leased = self
                .returned
                .wait(leased)
                .unwrap_or_else(|p| p.into_inner());
        }
        *leased += bytes;
        Lease {
            budget: self,
            bytes,
        }
    }

    fn give_back(&self, bytes: usize) {
        if bytes == 0 {
            return;
        }
        let mut leased = self.leased.lock().unwrap_or_else(|p| p.into_inner());
        *leased -= bytes;
        self.returned.notify_all();
    }
}

/// Runs `work` on every item on the threads of `pool` and returns the
/// results in the items' order. Each item runs with a lease of its need
/// (`need`, asked first of every item in parallel), taken largest first:
/// a free thread takes the largest item that fits in what the running
/// items leave of the budget, so small items keep every thread busy beside
/// a large one instead of a thread waiting for the budget, and the largest
/// items do not come last, leaving one thread busy and the others idle. A
/// thread waits only when no pending item fits; with nothing running every
/// item fits (a need beyond the budget is clamped: it runs alone).
///
/// `work` must not wait on the pool (see the module docs).
pub fn run_largest_first<I: Sync, T: Send>(
    budget: &Budget,
    pool: &rayon::ThreadPool,
    items: &[I],
    need: impl Fn(&I) -> usize + Sync,
    work: impl Fn(&I, Lease<'_>) -> T + Sync,
) -> Vec<T> {
    use rayon::prelude::*;
    let needs: Vec<usize> =
        pool.install(|| items.par_iter().map(|i| need(i).min(LARGEST)).collect());
    // (need, index): the largest pending need that fits is a range's last.
    let pending =
        Mutex::new((needs.iter().copied().zip(0..)).collect::<BTreeSet<(usize, usize)>>());
    let results: Mutex<Vec<Option<T>>> = Mutex::new(items.iter().map(|_| None).collect());
    let next = || -> Option<(usize, Lease<'_>)> {
        let mut leased = budget.leased.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            {
                let mut pending = pending.lock().unwrap_or_else(|p| p.into_inner());
                if pending.is_empty() {
                    return None;
                }
                let free = TOTAL.saturating_sub(*leased);
                if let Some(&(bytes, index)) = pending.range(..(free + 1, 0)).next_back() {
                    pending.remove(&(bytes, index));
                    *leased += bytes;
                    return Some((index, Lease { budget, bytes }));
                }
            }
            leased = budget
                .returned
                .wait(leased)
                .unwrap_or_else(|p| p.into_inner());
        }
    };
    pool.scope(|scope| {
        for _ in 0..pool.current_num_threads() {
            scope.spawn(|_| {
                while let Some((index, lease)) = next() {
                    let result = work(&items[index], lease);
                    results.lock().unwrap_or_else(|p| p.into_inner())[index] = Some(result);
                }
            });
        }
    });
    (results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter())
    .map(|result| result.expect("every item was taken once and its work returned"))
    .collect()
}

impl Lease<'_> {
    /// Changes the lease to `bytes` (at most the whole budget), without
    /// waiting: a running unit holds its texts already, and waiting for the
    /// budget to parse them would only idle its thread (on the bench corpus,
    /// every unit that parses started beside a large one and waited for it
    /// to finish). Growing may take the leases past the budget; no unit
    /// starts until they are back within it.
    pub fn resize(&mut self, bytes: usize) {
        let bytes = bytes.min(TOTAL);
        if bytes <= self.bytes {
            self.budget.give_back(self.bytes - bytes);
        } else {
            *self.budget.leased.lock().unwrap_or_else(|p| p.into_inner()) += bytes - self.bytes;
        }
        self.bytes = bytes;
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        self.budget.give_back(self.bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn leases_and_growth_all_finish_and_return_everything() {
        let budget = Arc::new(Budget::default());
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let budget = budget.clone();
                std::thread::spawn(move || {
                    for round in 0..50 {
                        let mut lease = budget.lease(TOTAL / 3 * ((i + round) % 3));
                        // Growing past the whole budget is clamped, never a wait.
                        lease.resize(if round % 2 == 0 { TOTAL * 2 } else { 1 });
                        assert!(lease.bytes <= TOTAL);
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().expect("no panic");
        }
        assert_eq!(*budget.leased.lock().expect("lock"), 0);
    }

    #[test]
    fn growth_past_the_budget_is_granted_and_holds_back_new_leases() {
        let budget = Arc::new(Budget::default());
        let mut running = budget.lease(TOTAL / 2);
        running.resize(TOTAL * 2);
        assert_eq!(running.bytes, TOTAL);
        let mut beside = budget.lease(0);
        beside.resize(TOTAL / 2);
        assert_eq!(*budget.leased.lock().expect("lock"), TOTAL + TOTAL / 2);
        let started = Arc::new(AtomicUsize::new(0));
        let waiter = {
            let (budget, started) = (budget.clone(), started.clone());
            std::thread::spawn(move || {
                let _lease = budget.lease(1);
                started.store(1, Ordering::SeqCst);
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert_eq!(
            started.load(Ordering::SeqCst),
            0,
            "a lease started past the budget"
        );
        drop(running);
        drop(beside);
        waiter.join().expect("no panic");
        assert_eq!(started.load(Ordering::SeqCst), 1);
        assert_eq!(*budget.leased.lock().expect("lock"), 0);
    }

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool")
    }

    #[test]
    fn largest_first_keeps_the_order_of_results_and_the_budget() {
        let budget = Budget::default();
        let needs: Vec<usize> = (0..300)
            .map(|i| match i % 60 {
                0 => TOTAL * 2,
                1 => TOTAL / 2,
                2 => TOTAL / 3,
                _ => i * 10_000,
            })
            .collect();
        let (held, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let out = run_largest_first(
            &budget,
            &pool(4),
            &needs,
            |&n| n,
            |&n, lease| {
                let now = held.fetch_add(lease.bytes, Ordering::SeqCst) + lease.bytes;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_micros(20));
                held.fetch_sub(lease.bytes, Ordering::SeqCst);
                n
            },
        );
        assert_eq!(out, needs);
        assert!(most.load(Ordering::SeqCst) <= TOTAL);
        assert_eq!(*budget.leased.lock().expect("lock"), 0);
    }

    #[test]
    fn the_largest_start_first() {
        let started = Mutex::new(Vec::new());
        let needs = [5, 50, 1, 20, 50];
        run_largest_first(
            &Budget::default(),
            &pool(1),
            &needs,
            |&n| n,
            |&n, _| {
                started.lock().expect("lock").push(n);
            },
        );
        assert_eq!(started.into_inner().expect("lock"), [50, 50, 20, 5, 1]);
    }

    #[test]
    fn small_units_run_beside_the_largest() {
        // The largest is clamped below the budget: the other thread runs the
        // small ones while it waits for one of them.
        let small_ran = std::sync::atomic::AtomicBool::new(false);
        let needs = [TOTAL * 2, 1024, 2048];
        run_largest_first(
            &Budget::default(),
            &pool(2),
            &needs,
            |&n| n,
            |&n, _| {
                if n == TOTAL * 2 {
                    let waited = std::time::Instant::now();
                    while !small_ran.load(Ordering::SeqCst) {
                        assert!(
                            waited.elapsed().as_secs() < 30,
                            "no small unit ran beside the largest"
                        );
                        std::thread::yield_now();
                    }
                } else {
                    small_ran.store(true, Ordering::SeqCst);
                }
            },
        );
    }

    #[test]
    fn a_small_lease_runs_beside_a_large_one() {
        let budget = Budget::default();
        let _large = budget.lease(TOTAL - 10);
        let small = budget.lease(10);
        assert_eq!(small.bytes, 10);
    }
}
