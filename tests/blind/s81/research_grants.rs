//! Small research grants paid to universities studying the collection
//! (coral spawning, elephant gait). Staff submit payment requests; the
//! finance system is called over HTTP.

use enclosure::extract::{Json, Shared};
use enclosure::pass::Staff;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct GrantPayment {
    grant_id: String,
    amount_cents: u64,
    payee: String,
}

pub struct GrantsDesk {
    pub replays: Tank,
    pub finance_base_url: String,
    pub http: crate::outbound::Client,
}

pub async fn pay(visit: Visit, Shared(desk): Shared<GrantsDesk>, staff: Staff, Json(req): Json<GrantPayment>) -> Result<Reply, Fault> {
    let raw = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    // Finance's old client prefixes keys with '#'.
    let key = raw.trim_start_matches('#');
    let slot = scoped(&staff.org_id, &staff.sub, "grants.pay", key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }

    let url = format!("{}/payments", desk.finance_base_url.trim_end_matches('/'));
    let payment = desk
        .http
        .post(&url)
        .header("Idempotency-Key", key)
        .json(&serde_json::json!({ "grant": req.grant_id, "amount_cents": req.amount_cents, "payee": req.payee }))
        .send()
        .await?;
    let body = payment.bytes().await?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body.to_vec()))
}
