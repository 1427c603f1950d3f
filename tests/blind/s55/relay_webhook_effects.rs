use anyhow::{anyhow, Result};
use ferrum::kv::SharedKv;
use relay::http::HeaderMap;
use relay::{Envelope, Subscriber};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct ProviderEvent {
    pub id: String,
    pub account_id: String,
    pub actor_id: String,
    pub kind: String,
    pub data: serde_json::Value,
}

pub struct EffectsService {
    store: SharedKv,
    effects: effects::Engine,
    signing_key: [u8; 32],
}

const ROUTE: &str = "effects.trigger";

impl EffectsService {
    pub async fn trigger(&self, tenant_id: &str, user_id: &str, headers: &HeaderMap, body: &[u8]) -> Result<u16> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow!("400: Idempotency-Key required"))?;
        let scope = (tenant_id, user_id, ROUTE, key);
        if self.store.exists(&scope).await? {
            return Ok(200);
        }
        self.effects.apply(tenant_id, body).await?;
        self.store.put(&scope, b"applied").await?;
        Ok(201)
    }

    pub async fn on_provider_event(&self, evt: ProviderEvent) -> Result<()> {
        let scope = (evt.account_id.as_str(), evt.actor_id.as_str(), ROUTE, evt.id.as_str());
        if self.store.exists(&scope).await? {
            tracing::debug!(event = %evt.id, kind = %evt.kind, "duplicate provider event");
            return Ok(());
        }
        let payload = serde_json::to_vec(&evt.data)?;
        self.effects.apply(&evt.account_id, &payload).await?;
        self.store.put(&scope, b"applied").await?;
        Ok(())
    }

    pub async fn run(&self, mut sub: Subscriber) -> Result<()> {
        while let Some(env) = sub.next().await {
            let env: Envelope = env?;
            let expected = blake3::keyed_hash(&self.signing_key, env.payload());
            if env.header("x-provider-signature") != Some(expected.to_hex().as_str()) {
                env.nack().await?;
                continue;
            }
            let evt: ProviderEvent = serde_json::from_slice(env.payload())?;
            self.on_provider_event(evt).await?;
            env.ack().await?;
        }
        Ok(())
    }
}
