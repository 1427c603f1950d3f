use std::sync::Arc;

use idem_scope::{scoped, scoped_server, Problem};
use serde::Deserialize;
use uuid::Uuid;

use crate::replay::ReplayStore;
use crate::tracking::{CheckpointUpdate, TrackingLedger};

#[derive(Clone)]
pub struct TrackingIngest {
    replays: Arc<ReplayStore>,
    ledger: Arc<TrackingLedger>,
}

#[derive(Deserialize)]
pub struct CarrierEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub update: CheckpointUpdate,
}

pub struct BackfillJob {
    pub tenant_id: String,
    pub actor: String,
    pub pages: Vec<Vec<CheckpointUpdate>>,
}

impl TrackingIngest {
    /// API path: shippers post manual checkpoints with their own Idempotency-Key.
    pub async fn client_update(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, update: CheckpointUpdate) -> Result<(), Problem> {
        let k = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(Problem::missing_key)?;
        let key = scoped(tenant_id, user_id, "tracking.checkpoints.create", k).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        if self.replays.lookup(key.storage_key()).await.is_some() {
            return Ok(());
        }
        self.ledger.apply(tenant_id, &update).await;
        self.replays.record(key.storage_key(), b"applied").await;
        Ok(())
    }

    /// Carrier webhooks are redelivered until acknowledged.
    pub async fn carrier_redelivery(&self, evt: CarrierEvent) -> anyhow::Result<()> {
        let key = scoped(&evt.tenant_id, &evt.user_id, "tracking.checkpoints.create", &evt.event_id)?;
        if self.replays.lookup(key.storage_key()).await.is_some() {
            return Ok(());
        }
        self.ledger.apply(&evt.tenant_id, &evt.update).await;
        self.replays.record(key.storage_key(), b"applied").await;
        Ok(())
    }

    pub async fn backfill(&self, job: BackfillJob) -> anyhow::Result<usize> {
        let run_id = Uuid::new_v4();
        let mut applied = 0;
        for (page_no, page) in job.pages.iter().enumerate() {
            let page_key = scoped(&job.tenant_id, &job.actor, "tracking.backfill", &format!("{run_id}.{page_no}"))?;
            if self.replays.lookup(page_key.storage_key()).await.is_some() {
                continue;
            }
            for update in page {
                self.ledger.apply(&job.tenant_id, update).await;
                applied += 1;
            }
            self.replays.record(page_key.storage_key(), b"applied").await;
        }
        Ok(applied)
    }

    pub async fn carrier_ack(&self, evt: &CarrierEvent) -> anyhow::Result<bool> {
        let key = scoped_server(&evt.tenant_id, &evt.user_id, "tracking.ack", &evt.event_id)?;
        Ok(self.replays.lookup(key.storage_key()).await.is_some())
    }
}
