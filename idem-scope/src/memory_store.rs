//! A process-local [`Store`]: for tests, examples and single-instance services.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use crate::store::{ClaimToken, Claimed, Store, StoreError, StoredResponse};
use crate::{Fingerprint, Record, RecordState, ScopedKey};

#[derive(Debug)]
struct Entry {
    record: Record,
    token: ClaimToken,
    response: Option<StoredResponse>,
    expires_at: SystemTime,
}

/// Records in a mutex-guarded map; every method is one critical section, as
/// one statement would be in a database. Clones share the map.
///
/// Expired records are taken over on the next claim and otherwise kept:
/// call [`MemoryStore::purge_expired`] periodically in a long-running process.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use idem_scope::{scoped, Claimed, Fingerprint, MemoryStore, Store, StoredResponse};
///
/// let store = MemoryStore::new();
/// let key = scoped("acme", "u1", "POST /v1/charges", "k1")?;
/// let fp = Fingerprint::of("POST /v1/charges", b"{}");
/// let lease = Duration::from_secs(60);
/// let Claimed::New(token) = store.claim(&key, &fp, lease).await? else { unreachable!() };
/// // A second claim while the first is live sees the record.
/// assert!(matches!(store.claim(&key, &fp, lease).await?, Claimed::Existing(_, None)));
/// let res = StoredResponse { status: 201, headers: vec![], body: b"{}".to_vec() };
/// assert!(store.complete(&key, &token, &res, Duration::from_secs(3600)).await?);
/// assert!(matches!(store.claim(&key, &fp, lease).await?, Claimed::Existing(_, Some(_))));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Default)]
pub struct MemoryStore {
    records: Arc<Mutex<HashMap<ScopedKey, Entry>>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        MemoryStore::default()
    }

    fn records(&self) -> MutexGuard<'_, HashMap<ScopedKey, Entry>> {
        // No user code runs under the lock, so a poisoned map is still consistent.
        self.records.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Claims currently held (records still `in_progress`).
    pub fn in_flight(&self) -> usize {
        self.records()
            .values()
            .filter(|e| e.record.state == RecordState::InProgress)
            .count()
    }

    /// Number of records, live or expired.
    pub fn len(&self) -> usize {
        self.records().len()
    }

    /// True when no record is stored.
    pub fn is_empty(&self) -> bool {
        self.records().is_empty()
    }

    /// Drops every record whose TTL has passed.
    pub fn purge_expired(&self) {
        let now = SystemTime::now();
        self.records().retain(|_, e| e.expires_at > now);
    }
}

fn taken_over(e: &Entry, now: SystemTime, lease: Duration) -> bool {
    let stale = e.record.state == RecordState::InProgress
        && now
            .duration_since(e.record.claimed_at)
            .is_ok_and(|age| age >= lease);
    stale || e.expires_at <= now
}

impl Store for MemoryStore {
    async fn claim(
        &self,
        key: &ScopedKey,
        fp: &Fingerprint,
        lease: Duration,
    ) -> Result<Claimed, StoreError> {
        let now = SystemTime::now();
        let mut records = self.records();
        if let Some(e) = records.get(key) {
            if !taken_over(e, now, lease) {
                return Ok(Claimed::Existing(e.record.clone(), e.response.clone()));
            }
        }
        let token = ClaimToken::mint();
        records.insert(
            key.clone(),
            Entry {
                record: Record::in_progress(*fp).claimed_at(now),
                token: token.clone(),
                response: None,
                // The claim itself lives at most a lease; `complete` extends it.
                expires_at: now + lease,
            },
        );
        Ok(Claimed::New(token))
    }

    async fn complete(
        &self,
        key: &ScopedKey,
        claim: &ClaimToken,
        response: &StoredResponse,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let mut records = self.records();
        let Some(e) = records.get_mut(key).filter(|e| e.token == *claim) else {
            return Ok(false);
        };
        e.record.state = RecordState::Completed;
        e.response = Some(response.clone());
        e.expires_at = SystemTime::now() + ttl;
        Ok(true)
    }

    async fn release(&self, key: &ScopedKey, claim: &ClaimToken) -> Result<bool, StoreError> {
        let mut records = self.records();
        let ours = records
            .get(key)
            .is_some_and(|e| e.token == *claim && e.record.state == RecordState::InProgress);
        if ours {
            records.remove(key);
        }
        Ok(ours)
    }

    async fn lookup(
        &self,
        key: &ScopedKey,
    ) -> Result<Option<(Record, Option<StoredResponse>)>, StoreError> {
        let now = SystemTime::now();
        Ok(self
            .records()
            .get(key)
            .filter(|e| e.expires_at > now)
            .map(|e| (e.record.clone(), e.response.clone())))
    }
}
