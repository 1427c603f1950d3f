//! Nightly royalty batch: posts music-licensing royalty lines submitted by
//! stations during the day. Each line carries the key the station's music
//! system sent with it.

use std::time::Duration;

use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;
use spool::lease::Leases;
use spool::log::Log;

const LEASE: Duration = Duration::from_secs(900);
const CLAIM_TTL: Duration = Duration::from_secs(300);

#[derive(Deserialize)]
pub struct Split {
    pub rights_holder: String,
    pub share_bp: u32,
    pub cents: i64,
}

#[derive(Deserialize)]
pub struct RoyaltyLine {
    pub tenant_id: String,
    pub actor: String,
    pub isrc: String,
    /// Idempotency key the station's music system sent with the line.
    pub submission_key: String,
    pub splits: Vec<Split>,
}

#[derive(Debug)]
pub enum BatchError {
    Store(spool::Error),
    Scope(idem_scope::ScopeError),
}

impl From<spool::Error> for BatchError {
    fn from(e: spool::Error) -> Self {
        BatchError::Store(e)
    }
}

impl From<idem_scope::ScopeError> for BatchError {
    fn from(e: idem_scope::ScopeError) -> Self {
        BatchError::Scope(e)
    }
}

pub async fn run_batch(leases: &Leases, cart: &Cart, log: &Log, batch: Vec<RoyaltyLine>) -> Result<(), BatchError> {
    let lease = leases.acquire("royalty-batch", LEASE).await?;

    'lines: for line in batch {
        let key = scoped(&line.tenant_id, &line.actor, "royalty-post", &line.submission_key)?;
        cart.acquire(key.storage_key(), CLAIM_TTL).await?;
        for split in &line.splits {
            if split.share_bp == 0 {
                tracing::warn!(isrc = %line.isrc, "zero share in split, stopping the batch");
                break 'lines;
            }
            if let Err(e) = post_split(log, &line.isrc, split).await {
                cart.release(key.storage_key()).await?;
                return Err(e.into());
            }
        }
        cart.complete(key.storage_key(), b"posted").await?;
    }

    leases.release(lease).await?;
    Ok(())
}

async fn post_split(log: &Log, isrc: &str, split: &Split) -> Result<(), spool::Error> {
    log.sql("INSERT INTO royalty_postings (isrc, rights_holder, share_bp, cents) VALUES ($1, $2, $3, $4)")
        .bind(isrc)
        .bind(&split.rights_holder)
        .bind(split.share_bp)
        .bind(split.cents)
        .exec()
        .await
        .map(|_| ())
}
