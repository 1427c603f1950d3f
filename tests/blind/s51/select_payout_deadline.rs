//! Payout execution with a deadline. The claim marks the payout key in flight.
use std::sync::Arc;
use std::time::Duration;

use http::HeaderMap;
use idem_scope::{ClaimGuard, ScopedKey};

#[async_trait::async_trait]
pub trait PayoutIdem: Send + Sync {
    async fn try_claim(&self, key: &ScopedKey) -> anyhow::Result<bool>;
    async fn complete(&self, key: &ScopedKey, body: &str) -> anyhow::Result<()>;
    async fn release(&self, key: &ScopedKey) -> anyhow::Result<()>;
}

pub struct Who {
    pub org_id: String,
    pub user_id: String,
}

fn header_key(headers: &HeaderMap) -> anyhow::Result<&str> {
    headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))
}

pub async fn payout(store: &dyn PayoutIdem, who: &Who, headers: &HeaderMap, amount: i64) -> anyhow::Result<String> {
    let key = idem_scope::scoped(&who.org_id, &who.user_id, "payouts.execute", header_key(headers)?)?;
    if !store.try_claim(&key).await? {
        anyhow::bail!("409 payout in progress");
    }
    let result = tokio::select! {
        r = execute(amount) => r,
        _ = tokio::time::sleep(Duration::from_secs(20)) => {
            return Err(anyhow::anyhow!("504 payout timed out"));
        }
    };
    let body = match result {
        Ok(b) => b,
        Err(e) => {
            store.release(&key).await?;
            return Err(e);
        }
    };
    store.complete(&key, &body).await?;
    Ok(body)
}

pub async fn payout_guarded(
    store: Arc<dyn PayoutIdem>,
    who: &Who,
    headers: &HeaderMap,
    amount: i64,
) -> anyhow::Result<String> {
    let scoped_key = Arc::new(idem_scope::scoped(&who.org_id, &who.user_id, "payouts.execute", header_key(headers)?)?);
    if !store.try_claim(&scoped_key).await? {
        anyhow::bail!("409 payout in progress");
    }
    let guard = ClaimGuard::new({
        let store = store.clone();
        let scoped_key = scoped_key.clone();
        move || {
            tokio::spawn(async move {
                let _ = store.release(&scoped_key).await;
            });
        }
    });
    let body = tokio::select! {
        r = execute(amount) => r?,
        _ = tokio::time::sleep(Duration::from_secs(20)) => {
            return Err(anyhow::anyhow!("504 payout timed out"));
        }
    };
    store.complete(&scoped_key, &body).await?;
    guard.complete();
    Ok(body)
}

async fn execute(amount: i64) -> anyhow::Result<String> {
    Ok(format!("{{\"amount\":{amount}}}"))
}
