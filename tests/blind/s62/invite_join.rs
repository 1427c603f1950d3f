use std::sync::Arc;

use idem_scope::{IdempotencyKey, Problem};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::{FromRequestParts, Json, Parts, State};
use wicket::{Reply, Status};

pub struct InviteKey(pub String);

impl FromRequestParts for InviteKey {
    type Rejection = Problem;

    fn from_parts(parts: &Parts) -> Result<Self, Problem> {
        let raw = parts.headers.get("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let parsed = IdempotencyKey::parse_lenient(raw.as_bytes())
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        Ok(InviteKey(parsed.as_str().to_owned()))
    }
}

#[derive(Deserialize)]
pub struct InviteBody {
    email: String,
    role: String,
}

pub struct InviteApp {
    invites: Arc<Vault>,
    directory: Arc<Vault>,
    metrics: statsd_lite::Client,
    mailer: mailer::Outbox,
}

pub async fn send_invite(
    State(app): State<Arc<InviteApp>>,
    caller: Caller,
    idem: InviteKey,
    Json(body): Json<InviteBody>,
) -> Reply {
    let op = "invites.send";
    let metric = [caller.org_id.as_str(), caller.user_id.as_str(), op].join("/");
    app.metrics.incr(&metric);

    let slot = [caller.org_id.as_str(), caller.user_id.as_str(), op, idem.0.as_str()].join("\x1e");
    if let Ok(Some(prev)) = app.invites.get(&slot).await {
        return Reply::bytes(Status::OK, prev);
    }

    let known = app.directory.get(&body.email).await.ok().flatten();
    let invite_id = app.mailer.queue_invite(&body.email, &body.role, known.is_some()).await;
    let payload = invite_id.into_bytes();
    let _ = app.invites.put(&slot, payload.clone()).await;
    Reply::bytes(Status::ACCEPTED, payload)
}
