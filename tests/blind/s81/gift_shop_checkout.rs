//! Online gift shop checkout (plush toys, prints, reef-safe sunscreen).

use enclosure::extract::{RawBody, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use sha2::{Digest, Sha256};

use crate::extractors::Caller;

pub struct Shop {
    pub replays: Tank,
    pub sessions: Tank,
    pub orders: crate::shop::Orders,
}

pub async fn checkout(visit: Visit, Shared(shop): Shared<Shop>, caller: Caller, RawBody(raw): RawBody) -> Result<Reply, Fault> {
    let token = visit.cookie("zoo_session").ok_or_else(|| Fault::unauthorized("sign in first"))?;
    let session_ref = format!("{:x}", Sha256::digest(token.as_bytes()));
    let session = shop.sessions.get(&session_ref).await?.ok_or_else(|| Fault::unauthorized("session expired"))?;

    let mut hasher = Sha256::new();
    for chunk in raw.chunks(8 * 1024) {
        hasher.update(chunk);
    }
    let cart_digest = hasher.finalize();
    let slot = scoped(&caller.org_id, &caller.user_id, "shop.checkout", &format!("{cart_digest:x}")).map_err(Fault::bad_request)?;
    if let Some(prev) = shop.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }

    let cart: crate::shop::Cart = serde_json::from_slice(&raw).map_err(Fault::bad_request)?;
    let order = shop.orders.place(&caller.org_id, &caller.user_id, &cart, &session).await?;
    let body = serde_json::to_vec(&order).map_err(Fault::internal)?;
    shop.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
