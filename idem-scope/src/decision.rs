//! What to do with a request, given the record already stored under its key.

use std::time::{Duration, SystemTime};

use crate::Fingerprint;

/// How long an `in_progress` claim is honoured before another request may
/// take it over (the claimant probably crashed without releasing).
pub const DEFAULT_LEASE: Duration = Duration::from_secs(5 * 60);

/// State of a stored record (the `status` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordState {
    /// Claimed; the original request is (or was) executing.
    InProgress,
    /// Finished; the stored response is replayed to retries.
    Completed,
}

impl RecordState {
    /// The `status` column spelling: `in_progress` or `completed`.
    pub const fn as_str(self) -> &'static str {
        match self {
            RecordState::InProgress => "in_progress",
            RecordState::Completed => "completed",
        }
    }
}

/// The part of a stored record that [`decide`] looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Claimed or completed.
    pub state: RecordState,
    /// Fingerprint of the request that created the record.
    pub fingerprint: Fingerprint,
    /// When the claim was taken; with the lease it tells a live claim from a
    /// stale one (the `claimed_at` column).
    pub claimed_at: SystemTime,
}

impl Record {
    /// A fresh claim, taken now.
    pub fn in_progress(fp: Fingerprint) -> Self {
        Record {
            state: RecordState::InProgress,
            fingerprint: fp,
            claimed_at: SystemTime::now(),
        }
    }

    /// A completed record (claimed now; the time no longer matters).
    pub fn completed(fp: Fingerprint) -> Self {
        Record {
            state: RecordState::Completed,
            fingerprint: fp,
            claimed_at: SystemTime::now(),
        }
    }

    /// Sets `claimed_at`, e.g. from the stored column.
    pub fn claimed_at(mut self, at: SystemTime) -> Self {
        self.claimed_at = at;
        self
    }
}

/// The answer to a request under a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    /// No live record: claim the key (insert `in_progress`) and execute.
    Proceed,
    /// Completed with the same fingerprint: return the stored response.
    Replay,
    /// The original is still executing: `409 Conflict` with `Retry-After`.
    InProgress,
    /// The key was used with a different payload: `422 Unprocessable Content`.
    Mismatch,
}

/// [`decide_at`] with the current time and [`DEFAULT_LEASE`].
///
/// Order of checks: no record → `Proceed`; different fingerprint → `Mismatch`,
/// even while the original is in flight, because a payload mismatch is a
/// client bug that retrying cannot fix, so the client must not be told to
/// retry; completed → `Replay`; in progress → `InProgress`, or `Proceed` once
/// the claim is older than the lease.
///
/// ```
/// use idem_scope::{decide, Decision, Fingerprint, Record};
///
/// let fp = Fingerprint::of("POST /v1/charges", b"{\"amount\":100}");
/// let other = Fingerprint::of("POST /v1/charges", b"{\"amount\":999}");
/// assert_eq!(decide(None, &fp), Decision::Proceed);
/// assert_eq!(decide(Some(&Record::in_progress(fp)), &fp), Decision::InProgress);
/// assert_eq!(decide(Some(&Record::in_progress(fp)), &other), Decision::Mismatch);
/// assert_eq!(decide(Some(&Record::completed(fp)), &fp), Decision::Replay);
/// assert_eq!(decide(Some(&Record::completed(fp)), &other), Decision::Mismatch);
/// ```
pub fn decide(existing: Option<&Record>, incoming: &Fingerprint) -> Decision {
    decide_at(existing, incoming, SystemTime::now(), DEFAULT_LEASE)
}

/// [`decide`] at an explicit time and lease.
///
/// A claim older than `lease` yields `Proceed`: the caller may take it over.
/// Two retries can both see the same stale claim, so the takeover must be a
/// conditional write (`UPDATE ... WHERE claimed_at = <the value read>`) and
/// only the winner executes. A `claimed_at` in the future (clock skew) counts
/// as live.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use idem_scope::{decide_at, Decision, Fingerprint, Record, DEFAULT_LEASE};
///
/// let fp = Fingerprint::of("r", b"body");
/// let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
/// let claim = Record::in_progress(fp).claimed_at(t0);
/// assert_eq!(decide_at(Some(&claim), &fp, t0 + Duration::from_secs(60), DEFAULT_LEASE), Decision::InProgress);
/// assert_eq!(decide_at(Some(&claim), &fp, t0 + DEFAULT_LEASE, DEFAULT_LEASE), Decision::Proceed);
/// ```
pub fn decide_at(
    existing: Option<&Record>,
    incoming: &Fingerprint,
    now: SystemTime,
    lease: Duration,
) -> Decision {
    let Some(record) = existing else {
        return Decision::Proceed;
    };
    if record.fingerprint != *incoming {
        return Decision::Mismatch;
    }
    match record.state {
        RecordState::Completed => Decision::Replay,
        RecordState::InProgress => match now.duration_since(record.claimed_at) {
            Ok(age) if age >= lease => Decision::Proceed,
            _ => Decision::InProgress,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mismatch_wins_over_in_progress_even_when_stale() {
        let fp = Fingerprint::of("r", b"a");
        let other = Fingerprint::of("r", b"b");
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(10_000);
        let claim = Record::in_progress(fp).claimed_at(t0);
        let lease = Duration::from_secs(5);
        assert_eq!(
            decide_at(Some(&claim), &other, t0, lease),
            Decision::Mismatch
        );
        assert_eq!(
            decide_at(Some(&claim), &other, t0 + lease * 2, lease),
            Decision::Mismatch
        );
    }

    #[test]
    fn lease_boundaries_and_clock_skew() {
        let fp = Fingerprint::of("r", b"a");
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(10_000);
        let claim = Record::in_progress(fp).claimed_at(t0);
        let lease = Duration::from_secs(5);
        let at = |secs: u64| decide_at(Some(&claim), &fp, t0 + Duration::from_secs(secs), lease);
        assert_eq!(at(4), Decision::InProgress);
        assert_eq!(at(5), Decision::Proceed);
        let before = t0 - Duration::from_secs(60);
        assert_eq!(
            decide_at(Some(&claim), &fp, before, lease),
            Decision::InProgress
        );
        // A completed record never expires through the lease.
        let done = Record::completed(fp).claimed_at(t0);
        assert_eq!(
            decide_at(Some(&done), &fp, t0 + lease * 100, lease),
            Decision::Replay
        );
    }

    #[test]
    fn state_spelling_matches_schema() {
        assert!(crate::POSTGRES_SCHEMA.contains(RecordState::InProgress.as_str()));
        assert!(crate::POSTGRES_SCHEMA.contains(RecordState::Completed.as_str()));
    }
}
