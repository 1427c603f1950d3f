use std::sync::Arc;

use async_trait::async_trait;
use idem_scope::{scoped, scoped_server, ScopedKey};
use serde::{Deserialize, Serialize};
use sidekiq::Worker;

use crate::carriers::VoidApi;
use crate::replay::VoidReplays;

#[derive(Deserialize)]
pub struct CarrierHook {
    pub event_id: String,
    pub account_id: String,
    pub user_id: String,
    pub tracking_number: String,
}

#[derive(Serialize, Deserialize, Clone)]
pub struct VoidArgs {
    pub job_id: String,
    pub account_id: String,
    pub user_id: String,
    pub tracking_number: String,
}

#[derive(Clone)]
pub struct Voids {
    replays: Arc<VoidReplays>,
    api: Arc<VoidApi>,
}

impl Voids {
    async fn void_once(&self, key: &ScopedKey, account_id: &str, tracking_number: &str) -> anyhow::Result<()> {
        if self.replays.load(key).await?.is_some() {
            return Ok(());
        }
        self.api.void(account_id, tracking_number).await?;
        self.replays.save(key, "voided").await?;
        Ok(())
    }

    pub async fn void_from_api(&self, account_id: &str, user_id: &str, client_key: &http::HeaderValue, tracking_number: &str) -> anyhow::Result<()> {
        let key = scoped(account_id, user_id, "labels.void", client_key.to_str()?)?;
        self.void_once(&key, account_id, tracking_number).await
    }

    pub async fn on_carrier_hook(&self, hook: CarrierHook) -> anyhow::Result<()> {
        let key = scoped(&hook.account_id, &hook.user_id, "labels.void", &format!("evt:{}", hook.event_id))?;
        self.void_once(&key, &hook.account_id, &hook.tracking_number).await
    }

    pub async fn on_carrier_ack(&self, hook: CarrierHook) -> anyhow::Result<bool> {
        let key = scoped_server(&hook.account_id, &hook.user_id, "labels.void.ack", &hook.event_id)?;
        Ok(self.replays.load(&key).await?.is_some())
    }
}

pub async fn void_http(voids: &Voids, headers: &http::HeaderMap, account_id: &str, user_id: &str, tracking_number: &str) -> anyhow::Result<()> {
    let hv = headers.get("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
    voids.void_from_api(account_id, user_id, hv, tracking_number).await
}

pub struct VoidLabelWorker {
    pub voids: Voids,
}

#[async_trait]
impl Worker<VoidArgs> for VoidLabelWorker {
    async fn perform(&self, args: VoidArgs) -> Result<(), sidekiq::Error> {
        let key = scoped(&args.account_id, &args.user_id, "labels.void", &args.job_id).map_err(|e| sidekiq::Error::Message(e.to_string()))?;
        self.voids.void_once(&key, &args.account_id, &args.tracking_number).await.map_err(|e| sidekiq::Error::Message(e.to_string()))
    }
}
