use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use anyhow::Error;
use background_jobs::{Job, MaxRetries, QueueHandle};
use bytes::Bytes;
use dashmap::DashMap;
use idem_scope::scoped;
use serde::{Deserialize, Serialize};

#[derive(Clone)]
pub struct ReplayHub {
    pub replays: Arc<DashMap<String, Bytes>>,
    pub notifier: crate::notify::Notifier,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct ReplayNotification {
    pub replay_id: String,
    pub tenant_id: String,
    pub channel: String,
    pub payload: serde_json::Value,
}

impl Job for ReplayNotification {
    type State = ReplayHub;
    type Error = Error;
    type Future = Pin<Box<dyn Future<Output = Result<(), Error>> + Send>>;

    const NAME: &'static str = "ReplayNotification";
    const QUEUE: &'static str = "notifications";
    const MAX_RETRIES: MaxRetries = MaxRetries::Count(8);

    fn run(self, hub: ReplayHub) -> Self::Future {
        Box::pin(async move {
            if hub.replays.insert(self.replay_id.clone(), Bytes::new()).is_some() {
                return Ok(());
            }
            let channel = self.channel.trim_start_matches('#');
            hub.notifier.send(&self.tenant_id, channel, &self.payload).await?;
            Ok(())
        })
    }
}

impl ReplayHub {
    pub async fn notify_now(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, req: crate::notify::Request) -> Result<Bytes, Error> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "notifications.send", key)?;
        if let Some(prev) = self.replays.get(sk.storage_key()) {
            return Ok(prev.clone());
        }
        let sent = self.notifier.send(&caller.tenant_id, &req.channel, &req.payload).await?;
        let out = Bytes::from(serde_json::to_vec(&sent)?);
        self.replays.insert(sk.storage_key().to_owned(), out.clone());
        Ok(out)
    }

    pub async fn schedule(&self, queue: &QueueHandle, n: ReplayNotification) -> Result<(), Error> {
        queue.queue(n).await?;
        Ok(())
    }
}
