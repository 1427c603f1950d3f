//! Hard limits on one unit's analysis: wall time and memory.
//!
//! The scheduler (`memory_budget`) decides *when* a unit runs from an
//! estimate; nothing there stops a unit whose analysis grows without bound
//! (a workspace read as one crate once grew to 24 GB and was killed by the
//! kernel, taking every other unit's findings with it). Here a unit runs
//! under [`enter`]: the analysis calls [`checkpoint`] in its loops, and once
//! the unit's time or memory is over its limit the checkpoint unwinds with
//! an [`Exceeded`] payload (by `resume_unwind`, so no panic message is
//! printed). The unit's `catch_unwind` turns it into one IDEM000 finding;
//! every other unit is still analysed and reported.
//!
//! Memory is the net bytes allocated on the unit's thread since it entered,
//! read through a probe the binaries install from their counting allocator
//! ([`install_memory_probe`]); the library itself forbids `unsafe` and has
//! no allocator of its own, so without a probe only time is limited.

use std::cell::Cell;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The limits of one unit's analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall time from the start of parsing to the end of the rules.
    pub time: Duration,
    /// Net bytes allocated by the unit's thread.
    pub memory: usize,
}

impl Default for Limits {
    /// Far above what any unit of the bench corpora needs (the largest, an
    /// 866k-line crate, stays under 1.1 GB and 35 s even when parsed whole),
    /// low enough that a runaway unit stops long before a 16 GB machine does.
    fn default() -> Limits {
        Limits {
            time: Duration::from_secs(120),
            memory: 2048 << 20,
        }
    }
}

/// Which limit a unit went over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resource {
    /// [`Limits::time`].
    Time,
    /// [`Limits::memory`].
    Memory,
}

/// The unwinding payload of a checkpoint over a limit, and what the unit reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exceeded {
    /// The limit that was reached.
    pub resource: Resource,
    /// The limits in force.
    pub limits: Limits,
    /// Time spent when it was noticed.
    pub elapsed: Duration,
}

impl std::fmt::Display for Exceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.resource {
            Resource::Time => write!(
                f,
                "analysis budget exceeded: over {} s (--unit-time-limit)",
                self.limits.time.as_secs()
            ),
            Resource::Memory => write!(
                f,
                "analysis budget exceeded: over {} MB after {:.1} s (--unit-memory-limit)",
                self.limits.memory >> 20,
                self.elapsed.as_secs_f64()
            ),
        }
    }
}

/// Net bytes allocated by the current thread, as the allocator counts them.
pub type MemoryProbe = fn() -> isize;

static PROBE: OnceLock<MemoryProbe> = OnceLock::new();

/// Lets the limits read the current thread's allocations (the binaries
/// call this once with their counting allocator's reader).
pub fn install_memory_probe(probe: MemoryProbe) {
    let _ = PROBE.set(probe);
}

fn thread_bytes() -> Option<isize> {
    PROBE.get().map(|probe| probe())
}

#[derive(Clone, Copy)]
struct Active {
    limits: Limits,
    started: Instant,
    memory_base: Option<isize>,
    /// Checkpoints since the clock was last read.
    calls: u32,
}

thread_local! {
    static ACTIVE: Cell<Option<Active>> = const { Cell::new(None) };
}

/// Reading the clock costs more than a checkpoint's other work; the memory
/// probe is a thread-local read and is asked every time.
const CLOCK_EVERY: u32 = 64;

/// While the returned guard lives, checkpoints on this thread enforce `limits`.
pub fn enter(limits: Limits) -> Guard {
    let previous = ACTIVE.with(|active| {
        active.replace(Some(Active {
            limits,
            started: Instant::now(),
            memory_base: thread_bytes(),
            calls: 0,
        }))
    });
    Guard { previous }
}

/// Restores the thread's previous limits (none, outside a unit).
pub struct Guard {
    previous: Option<Active>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        ACTIVE.with(|active| active.set(self.previous));
    }
}

/// Whether the unit running on this thread is over a limit; `Ok` outside a unit.
pub fn check() -> Result<(), Exceeded> {
    ACTIVE.with(|cell| {
        let Some(mut active) = cell.get() else {
            return Ok(());
        };
        if let (Some(base), Some(now)) = (active.memory_base, thread_bytes()) {
            if now.saturating_sub(base) > active.limits.memory as isize {
                return Err(active.exceeded(Resource::Memory));
            }
        }
        // The first checkpoint reads the clock too: a small unit may have
        // fewer than `CLOCK_EVERY`.
        if active.calls % CLOCK_EVERY == 0 && active.started.elapsed() > active.limits.time {
            return Err(active.exceeded(Resource::Time));
        }
        active.calls = active.calls.wrapping_add(1);
        cell.set(Some(active));
        Ok(())
    })
}

/// [`check`] for code deep inside the analysis: over a limit, unwinds to
/// the unit's `catch_unwind` with the [`Exceeded`] payload.
pub fn checkpoint() {
    if let Err(exceeded) = check() {
        std::panic::resume_unwind(Box::new(exceeded));
    }
}

/// The [`Exceeded`] a caught unwind carries, if a checkpoint started it.
pub fn exceeded_in(payload: &(dyn std::any::Any + Send)) -> Option<Exceeded> {
    payload.downcast_ref::<Exceeded>().copied()
}

impl Active {
    fn exceeded(&self, resource: Resource) -> Exceeded {
        Exceeded {
            resource,
            limits: self.limits,
            elapsed: self.started.elapsed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_a_unit_nothing_is_limited() {
        assert_eq!(check(), Ok(()));
    }

    #[test]
    fn time_over_the_limit_unwinds_with_the_payload() {
        let limits = Limits {
            time: Duration::ZERO,
            memory: usize::MAX >> 1,
        };
        let caught = std::panic::catch_unwind(|| {
            let _guard = enter(limits);
            std::thread::sleep(Duration::from_millis(2));
            checkpoint();
        });
        let payload = caught.expect_err("the checkpoint unwinds");
        let exceeded = exceeded_in(payload.as_ref()).expect("an Exceeded payload");
        assert_eq!(exceeded.resource, Resource::Time);
        // The guard was dropped by the unwind: the thread is free again.
        assert_eq!(check(), Ok(()));
    }

    thread_local! {
        static FAKE_BYTES: Cell<isize> = const { Cell::new(0) };
    }

    #[test]
    fn memory_over_the_limit_is_reported_with_its_resource() {
        // Other tests' threads read 0 from this probe: it changes nothing for them.
        install_memory_probe(|| FAKE_BYTES.with(Cell::get));
        FAKE_BYTES.with(|b| b.set(1000));
        let _guard = enter(Limits {
            time: Duration::from_secs(3600),
            memory: 4096,
        });
        FAKE_BYTES.with(|b| b.set(1000 + 4096));
        assert_eq!(check(), Ok(()), "at the limit is not over it");
        FAKE_BYTES.with(|b| b.set(1000 + 4097));
        let exceeded = check().expect_err("over the limit");
        assert_eq!(exceeded.resource, Resource::Memory);
        assert!(exceeded.to_string().contains("--unit-memory-limit"));
    }

    #[test]
    fn a_generous_limit_lets_the_unit_finish() {
        let _guard = enter(Limits::default());
        for _ in 0..1000 {
            checkpoint();
        }
        assert_eq!(check(), Ok(()));
    }
}
