use fnv::FnvHasher;
use foundationdb::Database;
use idem_scope::{scoped, IdempotencyKey};
use loco_rs::prelude::*;
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};

#[derive(Deserialize, Serialize, Hash)]
pub struct PayoutInput {
    pub destination: String,
    pub amount_cents: u64,
    pub memo: Option<String>,
}

pub struct Actor {
    pub merchant_id: String,
    pub actor: String,
}

fn actor_of(auth: &auth::JWT) -> Result<Actor> {
    let (merchant_id, actor) = auth.claims.pid.split_once(':').ok_or_else(|| Error::Unauthorized("bad pid".into()))?;
    Ok(Actor { merchant_id: merchant_id.to_owned(), actor: actor.to_owned() })
}

fn content_id(input: &PayoutInput) -> u64 {
    let mut h = FnvHasher::default();
    input.hash(&mut h);
    h.finish()
}

fn shard_of(merchant_id: &str) -> u64 {
    let mut h = FnvHasher::with_key(7);
    merchant_id.hash(&mut h);
    h.finish() % 16
}

pub async fn payout(
    State(ctx): State<AppContext>,
    auth: auth::JWT,
    headers: HeaderMap,
    Json(input): Json<PayoutInput>,
) -> Result<Response> {
    let db = ctx.shared_store.get::<std::sync::Arc<Database>>().ok_or_else(|| Error::string("fdb"))?;
    let who = actor_of(&auth)?;
    if headers.get("Idempotency-Key").is_none() {
        return Err(Error::BadRequest("Idempotency-Key required".into()));
    }
    let ck = IdempotencyKey::parse_lenient(headers["Idempotency-Key"].as_bytes()).map_err(|e| Error::BadRequest(e.to_string()))?;
    let claimed = scoped(&who.merchant_id, &who.actor, "payouts.create", ck.as_str()).map_err(|e| Error::BadRequest(e.to_string()))?;
    let dedup = (who.merchant_id.as_str(), who.actor.as_str(), "payouts.create", content_id(&input));
    let packed = serde_cbor::to_vec(&dedup).map_err(|e| Error::string(&e.to_string()))?;
    let shard = shard_of(&who.merchant_id);
    let trx = db.create_trx().map_err(|e| Error::string(&e.to_string()))?;
    let dup = trx.get(&packed, false).await.map_err(|e| Error::string(&e.to_string()))?;
    let replay = trx.get(claimed.storage_key().as_bytes(), false).await.map_err(|e| Error::string(&e.to_string()))?;
    if let Some(r) = replay.or(dup) {
        return format::json(serde_json::from_slice::<serde_json::Value>(&r)?);
    }
    let out = serde_json::json!({ "shard": shard, "amount": input.amount_cents });
    let bytes = serde_json::to_vec(&out)?;
    trx.set(claimed.storage_key().as_bytes(), &bytes);
    trx.set(&packed, &bytes);
    trx.commit().await.map_err(|e| Error::string(&e.to_string()))?;
    format::json(out)
}
