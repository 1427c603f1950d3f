use std::time::Duration;

use bitcoin_hashes::{sha256, Hash};
use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, RawBody};
use moraine::{Ctx, Reply, Status};
use sextant::locker::Locker;

pub struct IntentState {
    pub locker: Locker,
    pub token_cache: Locker,
    pub vault: crate::vault::CardVault,
}

fn body_digest(body: &[u8]) -> String {
    let d = sha256::Hash::hash(body);
    format!("{:x}", d)
}

pub async fn create_intent(ctx: Ctx<IntentState>, caller: Caller, head: Head, body: RawBody) -> Reply {
    if head.header("Idempotency-Key").is_none() {
        return Reply::problem(Problem::missing_key());
    }
    let digest = body_digest(body.as_bytes());
    let sk = match scoped(caller.tenant_id(), caller.user_id(), "payment_intent", &digest) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = ctx.state.locker.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev).header("Idempotent-Replayed", "true");
    }
    let intent = match ctx.state.vault.open_intent(caller.tenant_id(), body.as_bytes()).await {
        Ok(i) => i,
        Err(_) => return Reply::status(Status::BAD_GATEWAY),
    };
    let bytes = serde_json::to_vec(&intent).unwrap_or_default();
    let _ = ctx.state.locker.put(sk.storage_key(), &bytes, Duration::from_secs(86_400)).await;
    Reply::json(Status::CREATED, &intent)
}

pub async fn card_token_lookup(ctx: Ctx<IntentState>, head: Head) -> Reply {
    let Some(token) = head.header("X-Card-Token") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let token_hash = sha256::Hash::hash(token.as_bytes()).to_string();
    match ctx.state.token_cache.get(&token_hash).await {
        Ok(Some(v)) => Reply::bytes(Status::OK, v),
        _ => Reply::status(Status::NOT_FOUND),
    }
}
