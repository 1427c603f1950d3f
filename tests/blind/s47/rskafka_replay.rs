use std::sync::Arc;

use http::HeaderMap;
use idem_scope::{scoped, scoped_server};
use rskafka::client::partition::{OffsetAt, PartitionClient};
use rskafka::record::RecordAndOffset;
use serde::Deserialize;
use tikv_client::RawClient;

#[derive(Deserialize)]
pub struct LedgerEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub amount: i64,
}

pub struct LedgerConsumer {
    pub partition: Arc<PartitionClient>,
    pub tikv: RawClient,
    pub offsets: RawClient,
}

impl LedgerConsumer {
    pub async fn api_post(&self, headers: &HeaderMap, body: Vec<u8>) -> anyhow::Result<Option<Vec<u8>>> {
        let get = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let (Some(tenant_id), Some(user_id), Some(k)) = (get("x-tenant-id"), get("x-user-id"), get("idempotency-key")) else {
            anyhow::bail!("missing identity or key");
        };
        let sk = scoped(&tenant_id, &user_id, "ledger.post", &k)?;
        if let Some(prev) = self.tikv.get(sk.storage_key().to_owned()).await? {
            return Ok(Some(prev));
        }
        self.tikv.put(sk.storage_key().to_owned(), body).await?;
        Ok(None)
    }

    async fn apply(&self, rec: &RecordAndOffset) -> anyhow::Result<()> {
        let Some(value) = rec.record.value.as_ref() else {
            return Ok(());
        };
        let evt: LedgerEvent = serde_json::from_slice(value)?;
        let replay_key = scoped(&evt.tenant_id, &evt.user_id, "ledger.post", &format!("replay:{}", evt.event_id))?;
        if self.tikv.get(replay_key.storage_key().to_owned()).await?.is_some() {
            return Ok(());
        }
        self.tikv.put(replay_key.storage_key().to_owned(), evt.amount.to_string().into_bytes()).await?;
        self.offsets.put(format!("ledger-offset:{}", rec.offset), evt.event_id.clone().into_bytes()).await?;
        Ok(())
    }

    async fn apply_compensation(&self, evt: &LedgerEvent) -> anyhow::Result<()> {
        let sk = scoped_server(&evt.tenant_id, &evt.user_id, "ledger.compensate", &evt.event_id)?;
        self.tikv.put(sk.storage_key().to_owned(), b"compensated".to_vec()).await?;
        Ok(())
    }

    pub async fn run(&self) -> anyhow::Result<()> {
        let mut offset = self.partition.get_offset(OffsetAt::Earliest).await?;
        loop {
            let (records, _high_watermark) = self.partition.fetch_records(offset, 1..1_000_000, 1_000).await?;
            for rec in &records {
                self.apply(rec).await?;
                offset = rec.offset + 1;
            }
        }
    }
}
