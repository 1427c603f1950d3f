use std::time::Duration;

use ascon_hash::{AsconHash, Digest};
use cairn::kv::Bucket;
use halyard::auth::Caller;
use halyard::{Ctx, Json, Reply};
use serde::{Deserialize, Serialize};

pub struct QuoteState {
    replies: Bucket,
    sessions: Bucket,
}

#[derive(Deserialize, Serialize)]
pub struct QuoteInput {
    origin: String,
    destination: String,
    weight_grams: u32,
    service_level: String,
}

#[derive(Serialize)]
struct Quote {
    price_minor: i64,
    currency: &'static str,
    valid_for_secs: u64,
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}

pub async fn resolve_caller(ctx: &Ctx, state: &QuoteState) -> Option<Caller> {
    let token = ctx.header("Authorization")?.strip_prefix("Bearer ")?;
    let token_digest = to_hex(&AsconHash::digest(token.as_bytes()));
    let raw = state.sessions.get(&token_digest).await.ok()??;
    serde_json::from_slice(&raw).ok()
}

pub async fn create_quote(ctx: Ctx, Json(input): Json<QuoteInput>) -> Reply {
    let state = ctx.state::<QuoteState>();
    let Some(caller) = resolve_caller(&ctx, state).await else {
        return Reply::status(401);
    };

    // Quotes are cheap to recompute; identical requests share one cached answer.
    let digest = AsconHash::digest(serde_json::to_vec(&input).unwrap_or_default());
    let cache_key = format!("{}|{}|{}|{}", caller.tenant_id, caller.user_id, "quotes.create", to_hex(&digest));
    if let Ok(Some(prev)) = state.replies.get(&cache_key).await {
        return Reply::bytes(200, prev).header("Idempotent-Replayed", "true");
    }

    let quote = Quote {
        price_minor: 450 + i64::from(input.weight_grams / 100) * 35,
        currency: "EUR",
        valid_for_secs: 900,
    };
    let body = serde_json::to_vec(&quote).unwrap_or_default();
    let _ = state
        .replies
        .put_ttl(&cache_key, &body, Duration::from_secs(quote.valid_for_secs))
        .await;
    let summary = format!("{} -> {} ({})", input.origin, input.destination, input.service_level);
    Reply::bytes(201, body).header("X-Quote-Summary", &summary)
}
