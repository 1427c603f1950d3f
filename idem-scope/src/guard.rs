//! Releasing a claim on every exit path.

/// Holds a claim (an `in_progress` record) and runs `release` when dropped,
/// unless [`ClaimGuard::complete`] consumed it first.
///
/// Dropping covers every early exit between claim and completion: `?`,
/// `return`, `break`, and panics (the guard is dropped during unwinding).
/// Without it, a claim left behind answers every retry with 409 until its
/// lease runs out.
///
/// `release` must not panic: a panic while already unwinding aborts the
/// process.
///
/// # Async stores
///
/// `Drop` cannot `.await`. For an async store, let the closure hand the
/// release to a task, capturing the runtime handle when claiming so the guard
/// may be dropped anywhere:
///
/// ```
/// use std::sync::Arc;
/// use idem_scope::ClaimGuard;
/// use tokio::sync::Mutex;
///
/// async fn charge_downstream() -> Result<(), &'static str> {
///     Err("downstream failed")
/// }
///
/// async fn handler(claims: Arc<Mutex<Vec<String>>>) -> Result<(), &'static str> {
///     claims.lock().await.push("k1".to_owned()); // the claim
///     let rt = tokio::runtime::Handle::current();
///     let store = Arc::clone(&claims);
///     let guard = ClaimGuard::new(move || {
///         rt.spawn(async move { store.lock().await.retain(|k| k != "k1") });
///     });
///     charge_downstream().await?; // fails: guard dropped, release spawned
///     guard.complete();
///     Ok(())
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let claims = Arc::new(Mutex::new(Vec::new()));
/// assert!(handler(Arc::clone(&claims)).await.is_err());
/// for _ in 0..100 {
///     if claims.lock().await.is_empty() { break; }
///     tokio::task::yield_now().await; // let the release task run
/// }
/// assert!(claims.lock().await.is_empty());
/// # }
/// ```
///
/// `examples/charge_service.rs` does exactly this and `tests/e2e.rs` checks
/// that a panicking handler's claim is released. The release should delete
/// only the caller's own claim (compare a claim id or `claimed_at`), since
/// another request may have taken over a stale claim meanwhile.
///
/// ```
/// use std::cell::Cell;
/// use idem_scope::ClaimGuard;
///
/// let released = Cell::new(0);
/// fn work(fail: bool, released: &Cell<u32>) -> Result<(), &'static str> {
///     let guard = ClaimGuard::new(|| released.set(released.get() + 1));
///     if fail {
///         return Err("downstream failed"); // guard dropped: claim released
///     }
///     guard.complete(); // stored the response: nothing to release
///     Ok(())
/// }
/// assert!(work(true, &released).is_err());
/// assert_eq!(released.get(), 1);
/// assert!(work(false, &released).is_ok());
/// assert_eq!(released.get(), 1);
/// ```
#[must_use = "dropping the guard at once releases the claim immediately"]
pub struct ClaimGuard<F: FnOnce()> {
    release: Option<F>,
}

impl<F: FnOnce()> ClaimGuard<F> {
    /// Arms the guard; `release` runs on drop unless [`ClaimGuard::complete`] is called.
    pub fn new(release: F) -> Self {
        ClaimGuard {
            release: Some(release),
        }
    }

    /// Disarms the guard: the request completed and its response was stored.
    pub fn complete(mut self) {
        self.release = None;
    }

    /// Releases now instead of at the end of the scope.
    pub fn release(self) {
        drop(self);
    }
}

impl<F: FnOnce()> Drop for ClaimGuard<F> {
    fn drop(&mut self) {
        if let Some(release) = self.release.take() {
            release();
        }
    }
}

impl<F: FnOnce()> std::fmt::Debug for ClaimGuard<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClaimGuard")
            .field("armed", &self.release.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn released_on_question_mark_and_panic_not_after_complete() {
        let count = Arc::new(AtomicUsize::new(0));
        let guard_for = |c: &Arc<AtomicUsize>| {
            let c = Arc::clone(c);
            ClaimGuard::new(move || {
                c.fetch_add(1, Ordering::SeqCst);
            })
        };

        let with_question_mark = || -> Result<(), std::num::ParseIntError> {
            let _g = guard_for(&count);
            "x".parse::<u8>()?;
            Ok(())
        };
        assert!(with_question_mark().is_err());
        assert_eq!(count.load(Ordering::SeqCst), 1);

        let c2 = Arc::clone(&count);
        let panicked = std::panic::catch_unwind(move || {
            let _g = guard_for(&c2);
            panic!("handler bug");
        });
        assert!(panicked.is_err());
        assert_eq!(count.load(Ordering::SeqCst), 2);

        guard_for(&count).complete();
        assert_eq!(count.load(Ordering::SeqCst), 2);
        guard_for(&count).release();
        assert_eq!(count.load(Ordering::SeqCst), 3);
    }
}
