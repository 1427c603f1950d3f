//! [`Store`] on Redis: `SET NX PX` claims, Lua scripts for complete and release.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::aio::MultiplexedConnection;

use crate::store::{decode_response, encode_response};
use crate::{
    ClaimToken, Claimed, Fingerprint, Record, RecordState, ScopedKey, Store, StoreError,
    StoredResponse,
};

/// Records as Redis strings under `idem:` + [`ScopedKey::storage_key`].
///
/// - **claim**: `SET key <claim> NX PX <lease> GET`: one command that either
///   claims or returns the record in the way. The claim expires with its
///   lease, so a crashed claimant's key frees itself.
/// - **complete** / **release**: Lua scripts that first check the stored
///   claim token, so a claimant whose lease ran out (and whose key another
///   request claimed since) can neither overwrite nor delete the new claim.
///
/// The value is `p|c`, the 32-byte claim token, `claimed_at` in ms (8 bytes
/// big-endian), the 32-byte fingerprint, then for a completed record the
/// response. Needs Redis 7 (`SET .. NX .. GET`).
///
/// ```no_run
/// # async fn demo() -> Result<(), idem_scope::StoreError> {
/// let store = idem_scope::RedisStore::connect("redis://127.0.0.1/").await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisStore {
    conn: MultiplexedConnection,
    scripts: Arc<Scripts>,
}

struct Scripts {
    complete: redis::Script,
    release: redis::Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore").finish_non_exhaustive()
    }
}

/// KEYS[1] the record; ARGV[1] the owner's `p..` prefix; ARGV[2] the
/// encoded response; ARGV[3] the TTL in ms. Keeps the head (token, claim
/// time, fingerprint: bytes 2..=73) and flips the state byte to `c`.
const COMPLETE: &str = "
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 33) == ARGV[1] then
  redis.call('SET', KEYS[1], 'c' .. string.sub(v, 2, 73) .. ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0";

/// KEYS[1] the record; ARGV[1] the owner's `p..` prefix.
const RELEASE: &str = "
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 33) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0";

const TOKEN_LEN: usize = 32;
/// State byte, token, claim time, fingerprint: 73 bytes (the scripts rely on it).
const HEAD_LEN: usize = 1 + TOKEN_LEN + 8 + 32;

fn backend(e: redis::RedisError) -> StoreError {
    StoreError::Backend(e.to_string())
}

fn redis_key(key: &ScopedKey) -> Vec<u8> {
    [b"idem:".as_slice(), key.storage_key().as_bytes()].concat()
}

fn owner(claim: &ClaimToken) -> Vec<u8> {
    [b"p".as_slice(), claim.as_str().as_bytes()].concat()
}

fn value(state: u8, claim: &ClaimToken, at: SystemTime, fp: &Fingerprint) -> Vec<u8> {
    let ms = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis()) as u64;
    let mut v = Vec::with_capacity(HEAD_LEN);
    v.push(state);
    v.extend_from_slice(claim.as_str().as_bytes());
    v.extend_from_slice(&ms.to_be_bytes());
    v.extend_from_slice(fp.as_bytes());
    v
}

fn decode(v: &[u8]) -> Result<(Record, Option<StoredResponse>), StoreError> {
    if v.len() < HEAD_LEN {
        return Err(StoreError::Corrupt("record too short"));
    }
    let mut ms = [0u8; 8];
    ms.copy_from_slice(&v[1 + TOKEN_LEN..1 + TOKEN_LEN + 8]);
    let at = UNIX_EPOCH + Duration::from_millis(u64::from_be_bytes(ms));
    let fp = Fingerprint::from_slice(&v[1 + TOKEN_LEN + 8..HEAD_LEN])
        .ok_or(StoreError::Corrupt("fingerprint"))?;
    let (state, response) = match v[0] {
        b'p' => (RecordState::InProgress, None),
        b'c' => (
            RecordState::Completed,
            Some(decode_response(&v[HEAD_LEN..])?),
        ),
        _ => return Err(StoreError::Corrupt("state")),
    };
    let record = Record {
        state,
        fingerprint: fp,
        claimed_at: at,
    };
    Ok((record, response))
}

fn millis(d: Duration) -> u64 {
    // PX 0 is an error; the shortest lease is a millisecond.
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

impl RedisStore {
    /// A store on an open connection (clones share it).
    pub fn new(conn: MultiplexedConnection) -> Self {
        RedisStore {
            conn,
            scripts: Arc::new(Scripts {
                complete: redis::Script::new(COMPLETE),
                release: redis::Script::new(RELEASE),
            }),
        }
    }

    /// Connects to `url` (`redis://host:port/db`).
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let client = redis::Client::open(url).map_err(backend)?;
        let conn = client
            .get_multiplexed_async_connection()
            .await
            .map_err(backend)?;
        Ok(RedisStore::new(conn))
    }
}

impl Store for RedisStore {
    async fn claim(
        &self,
        key: &ScopedKey,
        fp: &Fingerprint,
        lease: Duration,
    ) -> Result<Claimed, StoreError> {
        let token = ClaimToken::mint();
        let claim = value(b'p', &token, SystemTime::now(), fp);
        let previous: Option<Vec<u8>> = redis::cmd("SET")
            .arg(redis_key(key))
            .arg(claim)
            .arg("NX")
            .arg("PX")
            .arg(millis(lease))
            .arg("GET")
            .query_async(&mut self.conn.clone())
            .await
            .map_err(backend)?;
        match previous {
            None => Ok(Claimed::New(token)),
            Some(v) => {
                let (record, response) = decode(&v)?;
                Ok(Claimed::Existing(record, response))
            }
        }
    }

    async fn complete(
        &self,
        key: &ScopedKey,
        claim: &ClaimToken,
        response: &StoredResponse,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let n: i64 = self
            .scripts
            .complete
            .key(redis_key(key))
            .arg(owner(claim))
            .arg(encode_response(response))
            .arg(millis(ttl))
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(backend)?;
        Ok(n == 1)
    }

    async fn release(&self, key: &ScopedKey, claim: &ClaimToken) -> Result<bool, StoreError> {
        let n: i64 = self
            .scripts
            .release
            .key(redis_key(key))
            .arg(owner(claim))
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(backend)?;
        Ok(n == 1)
    }

    async fn lookup(
        &self,
        key: &ScopedKey,
    ) -> Result<Option<(Record, Option<StoredResponse>)>, StoreError> {
        let v: Option<Vec<u8>> = redis::cmd("GET")
            .arg(redis_key(key))
            .query_async(&mut self.conn.clone())
            .await
            .map_err(backend)?;
        v.as_deref().map(decode).transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_decode_and_owner_prefix_matches_the_head() {
        let token = ClaimToken::mint();
        let fp = Fingerprint::of("r", b"b");
        let v = value(b'p', &token, SystemTime::now(), &fp);
        assert_eq!((v.len(), HEAD_LEN), (73, 73));
        assert_eq!(&v[..33], owner(&token).as_slice());
        let (record, response) = decode(&v).unwrap();
        assert_eq!(
            (record.state, record.fingerprint, response),
            (RecordState::InProgress, fp, None)
        );
        assert!(matches!(decode(&v[..10]), Err(StoreError::Corrupt(_))));
    }
}
