//! Payout scheduling worker with a pluggable KV (etcd-like or in-memory), trait objects.
use anyhow::{bail, ensure, Result};
use http::HeaderMap;
use idem_scope::scoped;
use std::time::Duration;

pub trait KvStore: Send + Sync {
    fn set_nx(&self, key: &str, value: &[u8], ttl: Duration) -> Result<bool>;
    fn set(&self, key: &str, value: &[u8], ttl: Duration) -> Result<()>;
    fn del(&self, key: &str) -> Result<()>;
}

pub struct Payouts {
    kv: Box<dyn KvStore>,
    coord: Box<dyn KvStore>,
}

pub struct PayoutReq {
    pub merchant_id: String,
    pub actor: String,
    pub amount_minor: i64,
    pub currency: String,
}

impl Payouts {
    pub fn schedule(&self, headers: &HeaderMap, req: &PayoutReq) -> Result<Vec<u8>> {
        let Some(k) = headers.get("X-Idempotency-Key").and_then(|v| v.to_str().ok()) else {
            bail!("400 missing X-Idempotency-Key");
        };
        let key = scoped(&req.merchant_id, &req.actor, "payouts.schedule", k)?;
        if !self.kv.set_nx(key.storage_key(), b"in_progress", Duration::from_secs(300))? {
            bail!("409 payout already in progress");
        }
        ensure!(req.amount_minor > 0, "422 amount must be positive");
        ensure!(req.currency.len() == 3, "422 bad currency");
        let resp = format!("{{\"scheduled\":{}}}", req.amount_minor).into_bytes();
        self.kv.set(key.storage_key(), &resp, Duration::from_secs(86_400))?;
        Ok(resp)
    }

    pub fn nightly_sweep(&self) -> Result<()> {
        if !self.coord.set_nx("leader/payout-sweep", b"me", Duration::from_secs(60))? {
            return Ok(());
        }
        sweep_batches()?;
        self.coord.set("leader/payout-sweep/last", b"done", Duration::from_secs(86_400))?;
        Ok(())
    }
}

fn sweep_batches() -> Result<()> {
    Ok(())
}
