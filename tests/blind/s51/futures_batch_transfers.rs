//! POST /v1/transfers:batch — every item carries its own idempotency key.
use futures::stream::{self, StreamExt, TryStreamExt};
use serde::Deserialize;

#[derive(Deserialize, Clone)]
pub struct BatchItem {
    /// The client's idempotency key for this item; same semantics as the
    /// `Idempotency-Key` header on single transfers.
    pub idempotency_key: String,
    pub to_account: String,
    pub amount: i64,
}

#[derive(Deserialize)]
pub struct BatchRequest {
    pub items: Vec<BatchItem>,
}

#[async_trait::async_trait]
pub trait TransferIdem: Send + Sync {
    async fn begin(&self, key: &idem_scope::ScopedKey) -> anyhow::Result<()>;
    async fn finish(&self, key: &idem_scope::ScopedKey, transfer_id: &str) -> anyhow::Result<()>;
    async fn abort(&self, key: &idem_scope::ScopedKey) -> anyhow::Result<()>;
}

pub async fn transfer_batch(
    store: &dyn TransferIdem,
    org_id: &str,
    user_id: &str,
    req: BatchRequest,
) -> anyhow::Result<Vec<String>> {
    stream::iter(req.items)
        .map(|item| async move {
            let key = idem_scope::scoped(org_id, user_id, "transfers.batch", &item.idempotency_key)?;
            store.begin(&key).await?;
            validate(&item)?;
            let id = book(&item).await?;
            store.finish(&key, &id).await?;
            Ok::<_, anyhow::Error>(id)
        })
        .buffer_unordered(8)
        .try_collect()
        .await
}

pub async fn notify_batch(hooks: &[String], batch_id: &str) -> anyhow::Result<()> {
    stream::iter(hooks.iter())
        .for_each_concurrent(4, |url| async move {
            let lock_name = format!("notify:{url}:{batch_id}");
            tracing::debug!(%lock_name, "sending batch notification");
        })
        .await;
    Ok(())
}

fn validate(item: &BatchItem) -> anyhow::Result<()> {
    anyhow::ensure!(item.amount > 0, "amount must be positive");
    Ok(())
}

async fn book(item: &BatchItem) -> anyhow::Result<String> {
    Ok(format!("tr_{}", item.to_account))
}
