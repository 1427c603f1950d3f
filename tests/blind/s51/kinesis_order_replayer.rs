//! Order replayer: after an outage, orders captured on the Kinesis stream are
//! replayed through the same idempotency table the public API uses.
use aws_sdk_kinesis::Client as Kinesis;
use http::HeaderMap;
use serde::Deserialize;

#[derive(Deserialize)]
struct OrderEvent {
    merchant_id: String,
    user_id: String,
    sku: String,
}

#[async_trait::async_trait]
pub trait OrderIdem: Send + Sync {
    async fn lookup(&self, key: &idem_scope::ScopedKey) -> anyhow::Result<Option<String>>;
    async fn save(&self, key: &idem_scope::ScopedKey, order_id: &str) -> anyhow::Result<()>;
}

pub async fn api_create(idem: &dyn OrderIdem, merchant_id: &str, user_id: &str, headers: &HeaderMap, sku: &str) -> anyhow::Result<String> {
    let client_key = headers
        .get("Idempotency-Key")
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
        .to_str()?;
    let key = idem_scope::scoped(merchant_id, user_id, "orders.create", client_key)?;
    if let Some(id) = idem.lookup(&key).await? {
        return Ok(id);
    }
    let id = place(sku).await?;
    idem.save(&key, &id).await?;
    Ok(id)
}

pub async fn replay_shard(kinesis: &Kinesis, idem: &dyn OrderIdem, iterator: String) -> anyhow::Result<Option<String>> {
    let out = kinesis.get_records().shard_iterator(iterator).limit(500).send().await?;
    for record in out.records() {
        let ev: OrderEvent = serde_json::from_slice(record.data().as_ref())?;
        let key = idem_scope::scoped(&ev.merchant_id, &ev.user_id, "orders.create", &format!("replay:{}", record.sequence_number()))?;
        if idem.lookup(&key).await?.is_some() {
            continue;
        }
        let id = place(&ev.sku).await?;
        idem.save(&key, &id).await?;
    }
    Ok(out.next_shard_iterator().map(str::to_owned))
}

async fn place(sku: &str) -> anyhow::Result<String> {
    Ok(format!("ord_{sku}"))
}
