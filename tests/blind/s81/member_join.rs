//! New memberships bought from the public site; visitors may or may not be
//! signed in when they start the flow.

use enclosure::extract::{Json, Shared};
use enclosure::pass::{MaybeMember, SiteOrg};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

const GUEST: &str = "guest";

#[derive(Deserialize)]
pub struct JoinRequest {
    tier: String,
    household: Vec<String>,
    gift_from: Option<String>,
}

pub struct Membership {
    pub replays: Tank,
    pub billing: crate::billing::Billing,
}

pub async fn join(
    visit: Visit,
    Shared(club): Shared<Membership>,
    site: SiteOrg,
    MaybeMember(session): MaybeMember,
    Json(req): Json<JoinRequest>,
) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let user_id = session.as_ref().map_or_else(|| GUEST.to_owned(), |s| s.user_id.clone());
    let greeting = session.as_ref().map(|s| s.first_name.as_str()).unwrap_or("friend");

    let slot = scoped(&site.org_id, &user_id, "membership.join", key).map_err(Fault::bad_request)?;
    if let Some(prev) = club.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let membership = club.billing.join(&site.org_id, &req.tier, &req.household, req.gift_from.as_deref()).await?;
    let body = serde_json::to_vec(&serde_json::json!({
        "membership": membership,
        "message": format!("Welcome to the herd, {greeting}!"),
    }))
    .map_err(Fault::internal)?;
    club.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
