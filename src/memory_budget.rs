//! A bound on the memory that units analysed at once may use.
//!
//! A run's peak memory is set by the units that happen to be analysed
//! together: one 13 MB crate whose 1.7 MB of selected code is parsed needs
//! about 100 MB, a mid-sized one 60 MB, while most need a few. Each unit
//! estimates its need from its size and leases that much of a shared budget
//! before the work that needs it, waiting only when the units already
//! running leave too little. Small units run beside a large one, so threads
//! rarely idle; two large ones never run together.
//!
//! A unit must not wait on the thread pool (rayon `join`, nested parallel
//! iterators) while it holds a lease: the waiting thread could steal
//! another unit, whose lease might wait for the first one's forever.
//!
//! The estimates are resident bytes measured on the bench corpus
//! (`bench/run.sh`) with the binaries' allocator, not exact sizes: the
//! budget bounds the peak, it does not account for every allocation.

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
/// process' own 10–15 MB this keeps the peak near 135 MB. A unit needing
/// more (none on the corpus) is clamped to the whole budget: it runs alone.
pub const TOTAL: usize = 120 * 1024 * 1024;

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

impl Lease<'_> {
    /// Changes the lease to `bytes`. Growing gives the lease back first and
    /// then waits for the whole amount: a unit never waits while holding a
    /// part of the budget, so two growing units cannot wait on each other.
    pub fn resize(&mut self, bytes: usize) {
        let bytes = bytes.min(TOTAL);
        if bytes <= self.bytes {
            self.budget.give_back(self.bytes - bytes);
            self.bytes = bytes;
            return;
        }
        self.budget.give_back(std::mem::take(&mut self.bytes));
        *self = self.budget.lease(bytes);
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
    fn leases_never_exceed_the_budget_and_all_finish() {
        let budget = Arc::new(Budget::default());
        let held = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let (budget, held, most) = (budget.clone(), held.clone(), most.clone());
                std::thread::spawn(move || {
                    for round in 0..50 {
                        let first = TOTAL / 3 * ((i + round) % 3);
                        let mut lease = budget.lease(first);
                        let now = held.fetch_add(lease.bytes, Ordering::SeqCst) + lease.bytes;
                        most.fetch_max(now, Ordering::SeqCst);
                        held.fetch_sub(lease.bytes, Ordering::SeqCst);
                        // Growing past the whole budget is clamped, not a deadlock.
                        lease.resize(if round % 2 == 0 { TOTAL * 2 } else { 1 });
                        let now = held.fetch_add(lease.bytes, Ordering::SeqCst) + lease.bytes;
                        most.fetch_max(now, Ordering::SeqCst);
                        held.fetch_sub(lease.bytes, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().expect("no panic");
        }
        assert!(most.load(Ordering::SeqCst) <= TOTAL);
        assert_eq!(*budget.leased.lock().expect("lock"), 0);
    }

    #[test]
    fn a_small_lease_runs_beside_a_large_one() {
        let budget = Budget::default();
        let _large = budget.lease(TOTAL - 10);
        let small = budget.lease(10);
        assert_eq!(small.bytes, 10);
    }
}
