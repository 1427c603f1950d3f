//! Mobile wallet passes (Apple/Google) for members: add, refresh, revoke.

use enclosure::extract::Shared;
use enclosure::pass::Member;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::{scoped, Component, ScopeError};
use lagoon::tank::Tank;

pub struct WalletDesk {
    pub replays: Tank,
    pub passes: crate::wallet::PassIssuer,
}

pub async fn add_pass(visit: Visit, Shared(desk): Shared<WalletDesk>, member: Member) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let platform = visit.query("platform").unwrap_or("apple");
    let mut org_id = member.org_id.clone();
    org_id.retain(|c| c != '#');

    let slot = match scoped(&org_id, &member.user_id, "wallet.add", key) {
        Ok(slot) => slot,
        Err(ScopeError::ContainsSeparator(Component::Key)) => return Err(Fault::bad_request("key contains a reserved character")),
        Err(e) => return Err(Fault::bad_request(e)),
    };
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let pass = desk.passes.issue(&member.org_id, &member.user_id, platform).await?;
    let body = serde_json::to_vec(&pass).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn revoke_pass(visit: Visit, Shared(desk): Shared<WalletDesk>, member: Member) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    if key.contains(['#', '|', '\0']) {
        return Err(Fault::bad_request("key contains a reserved character"));
    }
    let slot = scoped(&member.org_id, &member.user_id, "wallet.revoke", key).map_err(Fault::bad_request)?;
    if desk.replays.exists(slot.storage_key()).await? {
        return Ok(Reply::empty(Status::NO_CONTENT));
    }
    desk.passes.revoke(&member.org_id, &member.user_id).await?;
    desk.replays.put(slot.storage_key(), b"revoked").await?;
    Ok(Reply::empty(Status::NO_CONTENT))
}
