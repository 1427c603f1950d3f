use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use ledgerkit::idem::{ReplayStore, ReplayStoreBuilder};
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct IdempotencyPolicy {
    pub enabled: bool,
    pub header: String,
    pub ttl_secs: u64,
    pub require_on_post: bool,
}

impl Default for IdempotencyPolicy {
    fn default() -> Self {
        Self { enabled: true, header: "Idempotency-Key".to_owned(), ttl_secs: 86_400, require_on_post: true }
    }
}

pub struct Settings {
    pub idempotency: IdempotencyPolicy,
    pub service_slug: String,
}

impl Settings {
    pub fn from_env() -> anyhow::Result<Self> {
        let raw = std::env::var("GATEWAY_SETTINGS").unwrap_or_default();
        let mut idempotency: IdempotencyPolicy = if raw.is_empty() { IdempotencyPolicy::default() } else { serde_json::from_str(&raw)? };
        idempotency.header = idempotency.header.trim().to_ascii_lowercase();
        let service_slug = std::env::var("SERVICE_NAME")
            .unwrap_or_else(|_| "gateway".to_owned())
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        Ok(Self { idempotency, service_slug })
    }

    pub fn replay_store(&self, url: &str) -> anyhow::Result<ReplayStore> {
        let idempotency = self.idempotency.clone();
        Ok(ReplayStoreBuilder::new(url)
            .ttl(Duration::from_secs(idempotency.ttl_secs))
            .namespace(&self.service_slug)
            .policy(idempotency)
            .build()?)
    }

    pub fn key_for(&self, req: &gatehouse::http::Request, auth: &gatehouse::Auth, route: &str) -> anyhow::Result<Option<ScopedKey>> {
        let Some(raw) = req.header_str(&self.idempotency.header) else {
            anyhow::ensure!(!self.idempotency.require_on_post || req.method() != "POST", "{} header required", self.idempotency.header);
            return Ok(None);
        };
        Ok(Some(scoped(&auth.tenant_id, &auth.principal_id, route, raw)?))
    }
}
