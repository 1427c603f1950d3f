//! Outbound SMS API. Claims live in Redis with SET NX PX.

use r2d2_redis::{r2d2, redis, RedisConnectionManager};
use idem_scope::ScopedKey;

type Pool = r2d2::Pool<RedisConnectionManager>;

#[derive(Debug, displaydoc::Display)]
pub enum SendError {
    /// duplicate request still running
    InFlight,
    /// redis failed
    Redis,
    /// carrier timed out
    Timeout,
    /// carrier rejected the message
    Rejected,
}

pub fn send(pool: &Pool, key: &ScopedKey, to: &str, text: &str) -> Result<Vec<u8>, SendError> {
    let mut conn = pool.get().map_err(|_| SendError::Redis)?;
    let k = key.storage_key();
    let claimed: Option<String> = redis::cmd("SET").arg(k).arg("in_progress").arg("NX").arg("PX").arg(60_000).query(&mut *conn).map_err(|_| SendError::Redis)?;
    if claimed.is_none() {
        return Err(SendError::InFlight);
    }
    let receipt = match crate::carrier::send(to, text) {
        Ok(r) => r,
        Err(e) if e.is_timeout() => return Err(SendError::Timeout),
        Err(_) => {
            let _: redis::RedisResult<()> = redis::cmd("DEL").arg(k).query(&mut *conn);
            return Err(SendError::Rejected);
        }
    };
    let _: redis::RedisResult<()> = redis::cmd("SET").arg(k).arg(&receipt).arg("PX").arg(86_400_000).query(&mut *conn);
    Ok(receipt)
}

pub fn nightly_digest(pool: &Pool) -> Result<(), SendError> {
    let mut conn = pool.get().map_err(|_| SendError::Redis)?;
    let got: Option<String> = redis::cmd("SET").arg("lock:nightly-sms-digest").arg("1").arg("NX").arg("EX").arg(900).query(&mut *conn).map_err(|_| SendError::Redis)?;
    if got.is_none() {
        return Ok(());
    }
    let batch = crate::carrier::digest().map_err(|_| SendError::Rejected)?;
    let _: redis::RedisResult<()> = redis::cmd("SET").arg("digest:last").arg(batch).query(&mut *conn);
    Ok(())
}
