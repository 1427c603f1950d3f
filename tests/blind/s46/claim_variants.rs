use anyhow::{bail, ensure, Context as _};
use std::collections::BTreeMap;

pub struct Tx;

#[async_trait::async_trait]
pub trait Records: Send + Sync {
    async fn reserve(&self, key: &str) -> anyhow::Result<()>;
    async fn mark_completed(&self, key: &str, body: &[u8]) -> anyhow::Result<()>;
    async fn release(&self, key: &str) -> anyhow::Result<()>;
}

pub struct Req {
    pub tenant_id: String,
    pub user_id: String,
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

async fn book(body: &[u8]) -> anyhow::Result<Vec<u8>> {
    Ok(body.to_vec())
}

pub async fn book_seat(rec: &dyn Records, req: &Req) -> anyhow::Result<Vec<u8>> {
    let k = req.headers.get("idempotency-key").context("missing key")?;
    let key = idem_scope::scoped(&req.tenant_id, &req.user_id, "book_seat", k)?;
    rec.reserve(key.storage_key()).await?;
    ensure!(!req.body.is_empty(), "empty body");
    if req.body.len() > 4096 {
        bail!("too large");
    }
    let out = book(&req.body).await?;
    rec.mark_completed(key.storage_key(), &out).await?;
    Ok(out)
}

pub async fn book_batch(rec: &dyn Records, req: &Req, seats: &[u32]) -> anyhow::Result<()> {
    let k = req.headers.get("idempotency-key").context("missing key")?;
    let key = idem_scope::scoped(&req.tenant_id, &req.user_id, "book_batch", k)?;
    rec.reserve(key.storage_key()).await?;
    let mut booked = Vec::new();
    for s in seats {
        let n: u32 = s.to_string().parse().unwrap();
        booked.push(n);
    }
    rec.mark_completed(key.storage_key(), &[booked.len() as u8]).await?;
    Ok(())
}

pub async fn book_checked(rec: &dyn Records, req: &Req) -> anyhow::Result<Vec<u8>> {
    let k = req.headers.get("idempotency-key").context("missing key")?;
    let key = idem_scope::scoped(&req.tenant_id, &req.user_id, "book_checked", k)?;
    rec.reserve(key.storage_key()).await?;
    let res = book(&req.body).await;
    if let Err(e) = &res {
        rec.release(key.storage_key()).await?;
        bail!("booking failed: {e}");
    }
    let out = res?;
    rec.mark_completed(key.storage_key(), &out).await?;
    Ok(out)
}
