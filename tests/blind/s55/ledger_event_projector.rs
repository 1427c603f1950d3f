use ferrum::kv::SharedKv;
use idem_scope::{scoped, ScopedKey};
use relay::http::HeaderMap;
use relay::{Batch, Subscriber};
use serde::Deserialize;
use tokio::sync::broadcast;

#[derive(Deserialize, Clone)]
pub struct LedgerEvent {
    pub event_id: String,
    pub tenant: String,
    pub actor: String,
    pub entry: ledger::Entry,
}

pub struct Projector {
    applied: SharedKv,
    ledger: ledger::Client,
}

impl Projector {
    pub async fn post_manual(&self, tenant: &str, actor: &str, headers: &HeaderMap, entry: ledger::Entry) -> anyhow::Result<bool> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 missing key"))?;
        let sk = scoped(tenant, actor, "ledger.post", key)?;
        if self.applied.exists(sk.storage_key()).await? {
            return Ok(false);
        }
        self.ledger.post(tenant, &entry).await?;
        self.applied.set(sk.storage_key(), b"1").await?;
        Ok(true)
    }

    async fn apply_batch(&self, batch: Batch<LedgerEvent>) -> anyhow::Result<()> {
        let keyed: Vec<(ScopedKey, LedgerEvent)> = batch
            .items()
            .iter()
            .map(|e| Ok((scoped(&e.tenant, &e.actor, "ledger.post", &e.event_id)?, e.clone())))
            .collect::<Result<_, idem_scope::ScopeError>>()?;

        for (sk, evt) in keyed {
            if self.applied.exists(sk.storage_key()).await? {
                continue;
            }
            self.ledger.post(&evt.tenant, &evt.entry).await?;
            self.applied.set(sk.storage_key(), b"1").await?;
        }
        batch.commit().await?;
        Ok(())
    }

    pub async fn run(&self, mut sub: Subscriber<LedgerEvent>, mut shutdown: broadcast::Receiver<()>) -> anyhow::Result<()> {
        loop {
            tokio::select! {
                Some(batch) = sub.next_batch(100) => self.apply_batch(batch).await?,
                _ = shutdown.recv() => break,
            }
        }
        Ok(())
    }
}
