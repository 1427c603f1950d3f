use std::sync::Arc;
use std::time::Duration;

use corvid::{Ctx, RawBody, Reply};
use hmac_sha256::HMAC;
use tallow::Kv;

use crate::subscriptions::{ProviderEvent, Subscriptions};

pub struct HookState {
    pub replays: Arc<Kv>,
    pub subs: Arc<Subscriptions>,
    pub signing_secret: Vec<u8>,
}

fn webhook_slot(tenant_id: &str, user_id: &str, webhook_id: &str) -> Result<String, idem_scope::ScopeError> {
    let route = "subscriptions.renew";
    let sk = idem_scope::scoped(tenant_id, user_id, route, webhook_id)?;
    Ok(sk.storage_key().to_owned())
}

/// POST /v1/subscriptions/renew: customers renew manually with an Idempotency-Key.
pub async fn renew(ctx: Ctx<Arc<HookState>>) -> Reply {
    let caller = ctx.caller()?;
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(400, "Idempotency-Key header is required");
    };
    let sk = idem_scope::scoped(&caller.tenant_id, &caller.user_id, "subscriptions.renew", &client_key)?;
    if let Some(prev) = ctx.state().replays.get(sk.storage_key()).await? {
        return Reply::bytes(200, prev);
    }
    let sub = ctx.state().subs.renew(&caller.tenant_id, &caller.user_id).await?;
    let body = serde_json::to_vec(&sub)?;
    ctx.state().replays.put(sk.storage_key(), &body, Duration::from_secs(86_400)).await?;
    Reply::bytes(200, body)
}

/// POST /hooks/provider: the billing provider renews on its own schedule.
pub async fn provider_hook(ctx: Ctx<Arc<HookState>>, RawBody(body): RawBody) -> Reply {
    let Some(webhook_id) = ctx.header("webhook-id") else {
        return Reply::status(400);
    };
    let signature = ctx.header("webhook-signature").unwrap_or_default();
    let expected = hex_simd::encode_to_string(HMAC::mac(&body, &ctx.state().signing_secret), hex_simd::AsciiCase::Lower);
    if signature.split(' ').all(|s| s.trim_start_matches("v1,") != expected) {
        return Reply::status(401);
    }
    let event: ProviderEvent = serde_json::from_slice(&body)?;
    let slot = webhook_slot(&event.tenant_id, &event.user_id, &webhook_id)?;
    if ctx.state().replays.get(&slot).await?.is_some() {
        return Reply::status(204);
    }
    let sub = ctx.state().subs.renew(&event.tenant_id, &event.user_id).await?;
    ctx.state().replays.put(&slot, &serde_json::to_vec(&sub)?, Duration::from_secs(86_400)).await?;
    Reply::status(204)
}
