//! Membership tier upgrades (Family -> Family Plus -> Patron).

use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

use enclosure::extract::{Json, Shared};
use enclosure::pass::Member;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

static STABLE: BuildHasherDefault<DefaultHasher> = BuildHasherDefault::new();

#[derive(Deserialize, Hash)]
pub struct UpgradeRequest {
    to_tier: String,
    prorate: bool,
    add_guest_pass: bool,
}

pub struct MemberClub {
    pub replays: Tank,
    pub billing: crate::billing::Billing,
}

pub async fn upgrade(visit: Visit, Shared(club): Shared<MemberClub>, member: Member, Json(req): Json<UpgradeRequest>) -> Result<Reply, Fault> {
    let slot = match visit.header("Idempotency-Key") {
        Some(k) => scoped(&member.org_id, &member.user_id, "membership.upgrade", k),
        None => scoped(&member.org_id, &member.user_id, "membership.upgrade", &format!("{:x}", STABLE.hash_one(&req))),
    }
    .map_err(Fault::bad_request)?;

    if let Some(prev) = club.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let invoice = club
        .billing
        .upgrade(&member.org_id, &member.user_id, &req.to_tier, req.prorate, req.add_guest_pass)
        .await?;
    let body = serde_json::to_vec(&invoice).map_err(Fault::internal)?;
    club.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::OK, body))
}
