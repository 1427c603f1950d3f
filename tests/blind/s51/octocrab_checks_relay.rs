//! Check-run relay: GitHub App webhooks and a small internal API share one
//! dedup cache so a check run is created at most once per request.
use std::sync::Arc;

use foyer::{Cache, CacheBuilder};
use http::{HeaderMap, StatusCode};
use octocrab::Octocrab;
use serde::Deserialize;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

#[derive(Clone)]
pub struct Installation {
    pub account_id: String,
    pub actor: String,
    pub octo: Octocrab,
}

pub struct Relay {
    dedup: Cache<String, u64>,
}

#[derive(Deserialize)]
pub struct CreateRun {
    pub owner: String,
    pub repo: String,
    pub head_sha: String,
    pub name: String,
}

impl Relay {
    pub fn new() -> Arc<Self> {
        Arc::new(Self { dedup: CacheBuilder::new(50_000).build() })
    }

    pub async fn create_run(
        &self,
        inst: &Installation,
        headers: &HeaderMap,
        body: CreateRun,
    ) -> anyhow::Result<(StatusCode, u64)> {
        let client_key = headers
            .get(IDEMPOTENCY_HEADER)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let key = idem_scope::scoped(&inst.account_id, &inst.actor, "create_check_run", client_key)?;
        if let Some(entry) = self.dedup.get(key.storage_key()) {
            return Ok((StatusCode::OK, *entry.value()));
        }
        let run = inst
            .octo
            .checks(&body.owner, &body.repo)
            .create_check_run(&body.name, &body.head_sha)
            .external_id(client_key)
            .send()
            .await?;
        self.dedup.insert(key.storage_key().to_owned(), run.id.0);
        Ok((StatusCode::CREATED, run.id.0))
    }

    pub async fn on_check_suite(&self, inst: &Installation, headers: &HeaderMap) -> anyhow::Result<()> {
        let delivery = headers
            .get("X-GitHub-Delivery")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        tracing::info!(delivery, "check_suite webhook received");
        let key = idem_scope::scoped(&inst.account_id, &inst.actor, "check_suite.rerequested", delivery)?;
        if self.dedup.get(key.storage_key()).is_some() {
            return Ok(());
        }
        self.dedup.insert(key.storage_key().to_owned(), 0);
        Ok(())
    }
}
