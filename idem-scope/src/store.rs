//! The storage contract behind the layer: claim, complete, release, look up.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::{Fingerprint, Record, ScopedKey};

/// A response kept for replay: status, headers and the whole body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredResponse {
    /// HTTP status code.
    pub status: u16,
    /// Header lines in order, names lower-case; bytes because header values
    /// need not be UTF-8.
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body bytes.
    pub body: Vec<u8>,
}

/// Proof of one claim, handed back to [`Store::complete`] and
/// [`Store::release`] so that a claimant whose lease ran out (and whose claim
/// another request took over) cannot complete or delete the new claim.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClaimToken(String);

impl ClaimToken {
    /// A token unique within this process and, with overwhelming likelihood,
    /// across processes: process id, wall-clock nanoseconds and a counter,
    /// hashed. No randomness source is needed.
    pub fn mint() -> Self {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let seed = format!("{}:{nanos}:{n}", std::process::id());
        let fp = Fingerprint::of("claim-token", seed.as_bytes());
        ClaimToken(fp.to_string()[..32].to_owned())
    }

    /// Wraps a token a store read back (e.g. from a column).
    pub fn from_string(token: String) -> Self {
        ClaimToken(token)
    }

    /// The token's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What [`Store::claim`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claimed {
    /// The key was free (or its claim had outlived the lease, or its record
    /// had expired): this request owns it now and executes.
    New(ClaimToken),
    /// A live record exists; [`crate::decide`] says what to answer. The
    /// response is set once the record is completed.
    Existing(Record, Option<StoredResponse>),
}

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The backend (database, network) failed.
    #[error("idempotency store unavailable: {0}")]
    Backend(String),
    /// A stored value could not be read back.
    #[error("idempotency store holds a malformed record: {0}")]
    Corrupt(&'static str),
}

/// Where records live. Every method is one atomic step on the backend, so
/// two requests racing on one key cannot both get [`Claimed::New`].
///
/// Implemented by [`crate::MemoryStore`], and with features by `PgStore`
/// (`postgres`) and `RedisStore` (`redis`).
pub trait Store: Clone + Send + Sync + 'static {
    /// Atomically: insert an `in_progress` record for `key` unless a live one
    /// exists. A claim older than `lease` and an expired record are taken
    /// over (the claimant probably crashed).
    fn claim(
        &self,
        key: &ScopedKey,
        fp: &Fingerprint,
        lease: Duration,
    ) -> impl Future<Output = Result<Claimed, StoreError>> + Send;

    /// Marks the claim completed with `response`, kept for `ttl`. Does nothing
    /// (returns `Ok(false)`) if `claim` no longer owns the key.
    fn complete(
        &self,
        key: &ScopedKey,
        claim: &ClaimToken,
        response: &StoredResponse,
        ttl: Duration,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Deletes the claim so a retry executes again. Does nothing (returns
    /// `Ok(false)`) if `claim` no longer owns the key.
    fn release(
        &self,
        key: &ScopedKey,
        claim: &ClaimToken,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Reads the live record under `key` without changing anything (used to
    /// follow [`crate::Aliases`]).
    fn lookup(
        &self,
        key: &ScopedKey,
    ) -> impl Future<Output = Result<Option<(Record, Option<StoredResponse>)>, StoreError>> + Send;
}

/// Binary encoding of a [`StoredResponse`] for byte-oriented backends:
/// `status u16 BE, header count u32 BE, (name len u32, name, value len u32,
/// value)*, body`.
#[cfg_attr(not(any(feature = "postgres", feature = "redis")), allow(dead_code))]
pub(crate) fn encode_response(r: &StoredResponse) -> Vec<u8> {
    let mut out = Vec::with_capacity(r.body.len() + 64);
    out.extend_from_slice(&r.status.to_be_bytes());
    out.extend_from_slice(&(r.headers.len() as u32).to_be_bytes());
    for (name, value) in &r.headers {
        out.extend_from_slice(&(name.len() as u32).to_be_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&(value.len() as u32).to_be_bytes());
        out.extend_from_slice(value);
    }
    out.extend_from_slice(&r.body);
    out
}

/// Inverse of [`encode_response`].
#[cfg_attr(not(any(feature = "postgres", feature = "redis")), allow(dead_code))]
pub(crate) fn decode_response(mut b: &[u8]) -> Result<StoredResponse, StoreError> {
    const BAD: StoreError = StoreError::Corrupt("response encoding");
    fn take<'a>(b: &mut &'a [u8], n: usize) -> Result<&'a [u8], StoreError> {
        if b.len() < n {
            return Err(BAD);
        }
        let (head, tail) = b.split_at(n);
        *b = tail;
        Ok(head)
    }
    fn len(b: &mut &[u8]) -> Result<usize, StoreError> {
        let raw = take(b, 4)?;
        Ok(u32::from_be_bytes([raw[0], raw[1], raw[2], raw[3]]) as usize)
    }
    let status = take(&mut b, 2)?;
    let status = u16::from_be_bytes([status[0], status[1]]);
    let count = len(&mut b)?;
    let mut headers = Vec::with_capacity(count.min(64));
    for _ in 0..count {
        let n = len(&mut b)?;
        let name = String::from_utf8(take(&mut b, n)?.to_vec()).map_err(|_| BAD)?;
        let n = len(&mut b)?;
        headers.push((name, take(&mut b, n)?.to_vec()));
    }
    Ok(StoredResponse {
        status,
        headers,
        body: b.to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_encoding_round_trips_and_rejects_truncation() {
        let r = StoredResponse {
            status: 201,
            headers: vec![
                ("content-type".into(), b"application/json".to_vec()),
                ("x-bin".into(), vec![0, 255]),
            ],
            body: b"{\"id\":\"ch_1\"}".to_vec(),
        };
        let bytes = encode_response(&r);
        assert_eq!(decode_response(&bytes).unwrap(), r);
        assert!(matches!(
            decode_response(&bytes[..9]),
            Err(StoreError::Corrupt(_))
        ));
    }

    #[test]
    fn tokens_are_distinct() {
        let a = ClaimToken::mint();
        let b = ClaimToken::mint();
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 32);
    }
}
