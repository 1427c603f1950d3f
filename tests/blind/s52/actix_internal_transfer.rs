use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use actix_web::{post, web, HttpResponse};
use serde::{Deserialize, Serialize};

use crate::auth::AuthContext;
use crate::ledger::LedgerClient;
use crate::replay::ReplayMap;

#[derive(Debug, Clone, Hash, Deserialize, Serialize)]
pub struct InternalTransfer {
    pub from_wallet: String,
    pub to_wallet: String,
    pub amount_minor: u64,
    pub currency: String,
    pub reference: Option<String>,
}

fn shard_for(tenant_id: &str, shards: u64) -> u64 {
    let mut h = DefaultHasher::new();
    tenant_id.hash(&mut h);
    h.finish() % shards
}

#[post("/v1/wallets/transfers")]
pub async fn internal_transfer(
    auth: AuthContext,
    body: web::Json<InternalTransfer>,
    replays: web::Data<ReplayMap>,
    ledger: web::Data<LedgerClient>,
) -> actix_web::Result<HttpResponse> {
    let body = body.into_inner();
    let mut h = DefaultHasher::new();
    body.hash(&mut h);
    let slot = format!("{}:{}:{}:{:016x}", auth.tenant_id, auth.user_id, "transfer.internal", h.finish());

    if let Some(prev) = replays.get(&slot) {
        return Ok(HttpResponse::Ok().insert_header(("Idempotent-Replayed", "true")).json(prev));
    }

    let shard = shard_for(&auth.tenant_id, ledger.shard_count());
    let posted = ledger
        .shard(shard)
        .post_transfer(&auth.tenant_id, &body)
        .await
        .map_err(actix_web::error::ErrorUnprocessableEntity)?;
    replays.insert(slot, posted.clone());
    Ok(HttpResponse::Created().json(posted))
}
