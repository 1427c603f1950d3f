use std::sync::Arc;

use cistern::sql::Conn;
use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use wherry::auth::Caller;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

pub const INBOX_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS webhook_inbox (
    delivery_id  TEXT PRIMARY KEY,
    provider     TEXT NOT NULL,
    received_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    body         BYTEA NOT NULL,
    processed_at TIMESTAMPTZ
)"#;

#[derive(Clone)]
pub struct Billing {
    pub db: Arc<Conn>,
    pub vat: Arc<Vat>,
    pub credits: Arc<billing::Credits>,
}

/// Manual credit grants from the admin console.
pub async fn grant_credit(ctx: Ctx, caller: Caller, State(b): State<Billing>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "grant_credit", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = b.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let grant = b.credits.grant(&caller.tenant_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = b.vat.put(sk.storage_key(), grant.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, grant.to_json()))
}

/// Payment provider webhooks land in the inbox first; a worker applies them.
pub async fn provider_webhook(ctx: Ctx, State(b): State<Billing>) -> Result<Reply, Problem> {
    let delivery_id = ctx.header("Webhook-Id").ok_or_else(|| Problem::invalid_key("webhook id"))?;
    let inserted = b
        .db
        .query("INSERT INTO webhook_inbox (delivery_id, provider, body) VALUES ($1, $2, $3) ON CONFLICT (delivery_id) DO NOTHING")
        .bind(delivery_id)
        .bind("stripe-like")
        .bind(ctx.body())
        .execute()
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if inserted == 0 {
        tracing::debug!(delivery_id, "duplicate webhook delivery ignored");
    }
    Ok(Reply::status(Status::OK))
}
