use std::sync::Arc;

use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use quarry::sql::Pool;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::{Json, RawBody};
use wicket::{Ctx, Reply, Status};

/// Yellowbrick schema for the webhook inbox. Every delivery is recorded once.
pub const INBOX_DDL: &str = "
CREATE TABLE IF NOT EXISTS processed_events (
    event_id    VARCHAR(64) NOT NULL PRIMARY KEY,
    source      VARCHAR(32) NOT NULL,
    received_at TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP
)
DISTRIBUTE ON (event_id);
";

#[derive(Deserialize)]
pub struct MirrorRequest {
    repo_url: String,
    branch: String,
}

#[derive(Deserialize)]
struct PushEvent {
    installation_id: u64,
    repository: String,
    after: String,
}

pub struct RepoSync {
    vault: Arc<Vault>,
    inbox: Arc<Pool>,
    mirror: mirror::Client,
}

impl RepoSync {
    pub async fn create_mirror(&self, ctx: &Ctx, caller: &Caller, Json(req): Json<MirrorRequest>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.org_id, &caller.user_id, "mirrors.create", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let m = self.mirror.create(&caller.org_id, &req.repo_url, &req.branch).await;
        let _ = self.vault.put(sk.storage_key(), m.to_bytes()).await;
        Reply::bytes(Status::CREATED, m.to_bytes())
    }

    pub async fn github_push(&self, ctx: &Ctx, RawBody(body): RawBody) -> Reply {
        let Some(delivery_id) = ctx.header("X-GitHub-Delivery") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Ok(ev) = serde_json::from_slice::<PushEvent>(&body) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let mut conn = match self.inbox.acquire().await {
            Ok(c) => c,
            Err(_) => return Reply::status(Status::SERVICE_UNAVAILABLE),
        };
        let fresh = conn.query("INSERT INTO processed_events (event_id, source) VALUES (?, 'github') ON CONFLICT DO NOTHING").bind(delivery_id).execute().await;
        if !matches!(fresh, Ok(1)) {
            return Reply::status(Status::OK);
        }
        self.mirror.fetch(ev.installation_id, &ev.repository, &ev.after).await;
        Reply::status(Status::ACCEPTED)
    }
}
