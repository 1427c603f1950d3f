use cobble::vault::Vault;
use highwayhash::{HighwayHash, HighwayHasher, Key};
use idem_scope::scoped;
use thimble::auth::Caller;
use thimble::extract::RawBody;
use thimble::{Exchange, Reply, Status};

fn tag64(bytes: &[u8]) -> String {
    let mut h = HighwayHasher::new(Key([7, 11, 13, 17]));
    h.append(bytes);
    format!("{:016x}", h.finalize64())
}

/// Merges a guest cart into the signed-in cart. Mobile clients replay the
/// merge after reconnecting; the cart body itself is used to spot repeats.
pub async fn merge_cart(ex: Exchange, caller: Caller, RawBody(body): RawBody, vault: &Vault) -> Result<Reply, Reply> {
    let sk = Some(&body)
        .filter(|b| !b.is_empty())
        .map(|b| tag64(b))
        .and_then(|t| scoped(&caller.tenant_id, &caller.user_id, "cart.merge", &t).ok())
        .ok_or_else(|| Reply::status(Status::BadRequest))?;
    if !vault.set_nx(sk.storage_key(), &body).await.map_err(|_| down())? {
        return Ok(Reply::status(Status::Ok));
    }
    let etag = tag64(&body);
    let mut reply = Reply::status(Status::Accepted);
    reply.set_header("ETag", &etag);
    let _ = ex;
    Ok(reply)
}

pub async fn cart_snapshot(caller: Caller, vault: &Vault) -> Result<Reply, Reply> {
    let shard = tag64(caller.tenant_id.as_bytes());
    let snap = vault.get(&format!("cart-snap:{shard}:{}", caller.user_id)).await.map_err(|_| down())?;
    Ok(Reply::json(Status::Ok, &snap))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
