use std::sync::Arc;

use cairn::kv::Bucket;
use futures::StreamExt;
use idem_scope::scoped;
use serde::Deserialize;

/// Command published by the public API gateway after authentication.
#[derive(Deserialize)]
pub struct ApiCommand {
    pub tenant_id: String,
    pub user_id: String,
    pub region: Option<String>,
    /// Idempotency-Key header forwarded verbatim by the gateway.
    #[serde(rename = "Idempotency-Key")]
    pub client_key: String,
    pub payload: serde_json::Value,
}

pub struct Worker {
    replays: Arc<Bucket>,
}

impl Worker {
    pub async fn consume(&self, mut frames: impl futures::Stream<Item = Vec<u8>> + Unpin) -> anyhow::Result<()> {
        while let Some(frame) = frames.next().await {
            let cmd: ApiCommand = match serde_json::from_slice(&frame) {
                Ok(c) => c,
                Err(e) => {
                    tracing::warn!(error = %e, "undecodable frame");
                    continue;
                }
            };
            // C clients sometimes send NUL-terminated tenant ids.
            let tenant_id = cmd.tenant_id.replace('\0', "");
            let region = cmd.region.as_deref().unwrap_or("eu-1");
            let sk = scoped(&tenant_id, &cmd.user_id, "commands.apply", &cmd.client_key)?;
            if self.replays.get(sk.storage_key()).await?.is_some() {
                continue;
            }
            let body = serde_json::to_vec(&serde_json::json!({ "region": region, "ok": true, "echo": cmd.payload }))?;
            self.replays.put(sk.storage_key(), &body).await?;
        }
        Ok(())
    }
}
