use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use rs_sha256::{HasherContext, Sha256Hasher};
use std::hash::Hasher;
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct OrderReq {
    pub sku: String,
    pub qty: u32,
    pub ship_to: String,
}

fn order_digest(req: &OrderReq) -> String {
    let mut h = Sha256Hasher::default();
    h.write(&serde_json::to_vec(req).unwrap_or_default());
    let bytes: [u8; 32] = HasherContext::finish(&mut h).into();
    hex::encode(bytes)
}

pub async fn place_order(ex: Exchange, caller: Caller, Json(req): Json<OrderReq>, vault: &Vault) -> Result<Reply, Reply> {
    // A missing key falls back to the order contents so retries still collapse.
    let sk = scoped(&caller.tenant_id, &caller.user_id, "order.place", &ex.header("Idempotency-Key").map(str::to_owned).unwrap_or_else(|| order_digest(&req)))
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    if vault.exists(sk.storage_key()).await.map_err(|_| down())? {
        return Ok(Reply::status(Status::Ok));
    }
    vault.put(sk.storage_key(), serde_json::to_vec(&req).unwrap_or_default()).await.map_err(|_| down())?;
    Ok(Reply::status(Status::Created))
}

pub async fn order_etag(caller: Caller, Json(req): Json<OrderReq>, vault: &Vault) -> Result<Reply, Reply> {
    let etag = order_digest(&req);
    let cached = vault.get(&format!("etag:{}:{}", caller.tenant_id, req.sku)).await.map_err(|_| down())?;
    let mut reply = Reply::status(Status::Ok);
    if cached.as_deref() == Some(etag.as_bytes()) {
        reply = Reply::status(Status::NotModified);
    }
    reply.set_header("ETag", &etag);
    Ok(reply)
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
