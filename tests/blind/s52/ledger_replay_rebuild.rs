use futures_util::{stream, TryStreamExt};
use http::HeaderMap;
use serde::Deserialize;

use crate::kv::LedgerKv;
use crate::ledger::{LedgerEvent, Posting};

#[derive(Debug, Deserialize)]
pub struct PostRequest {
    pub tenant_id: String,
    pub user_id: String,
    pub postings: Vec<Posting>,
}

pub struct LedgerApi {
    kv: LedgerKv,
}

impl LedgerApi {
    pub async fn post(&self, headers: &HeaderMap, req: PostRequest) -> anyhow::Result<String> {
        let idem = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
        let slot = format!("{}:{}:{}:{}", req.tenant_id, req.user_id, "ledger.post", idem);
        if let Some(done) = self.kv.get(&slot).await? {
            return Ok(done);
        }
        let entry_id = self.kv.append_postings(&req.tenant_id, &req.postings).await?;
        self.kv.set(&slot, &entry_id).await?;
        Ok(entry_id)
    }

    pub async fn replay_events(&self, events: Vec<LedgerEvent>) -> anyhow::Result<usize> {
        stream::iter(events.into_iter().map(Ok::<_, anyhow::Error>))
            .try_filter(|ev| futures_util::future::ready(!ev.postings.is_empty()))
            .and_then(|ev| async move {
                let slot = format!("{}:{}:{}:replay-{}", ev.tenant_id, ev.actor, "ledger.post", ev.id);
                if self.kv.get(&slot).await?.is_some() {
                    return Ok(0usize);
                }
                let entry_id = self.kv.append_postings(&ev.tenant_id, &ev.postings).await?;
                self.kv.set(&slot, &entry_id).await?;
                Ok(1)
            })
            .try_fold(0usize, |acc, n| async move { Ok(acc + n) })
            .await
    }
}
