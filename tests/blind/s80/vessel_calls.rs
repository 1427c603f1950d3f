//! Vessel call registration for shipping agents (portal and API clients).
//!
//! An agent announces a call (IMO, voyage, ETA/ETD); the terminal answers with
//! a call reference. Retries carry the same `Idempotency-Key`.

use std::time::Duration;

use ballast::hold::Hold;
use ballast::sql::Pool;
use hawser::extract::Shared;
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{Fingerprint, Problem};
use jiff::Timestamp;
use serde::{Deserialize, Serialize};

const IDEMPOTENCY_KEY: &str = "Idempotency-Key";
const REPLY_TTL: Duration = Duration::from_secs(24 * 3600);

#[derive(Debug, Deserialize, Serialize)]
pub struct VesselCallRequest {
    pub imo: String,
    pub voyage: String,
    pub eta: Timestamp,
    pub etd: Timestamp,
    pub berth_pref: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct CallRef {
    pub call_ref: String,
    pub status: &'static str,
}

pub struct CallDesk {
    pub replies: Hold,
    pub calls: Pool,
}

pub async fn register_call(desk: Shared<CallDesk>, agent: Agent, call: Call) -> Result<Answer, Snag> {
    let Some(key) = call.header(IDEMPOTENCY_KEY) else {
        return Ok(Answer::problem(Problem::missing_key()));
    };
    let route = call.route_template().to_owned();
    let raw = call.body().await?;
    let req: VesselCallRequest = serde_json::from_slice(&raw).map_err(Snag::bad_request)?;

    let Agent { account_id, user_id, .. } = agent;
    let key = key.trim();
    let slot = format!("{account_id}\u{1e}{user_id}\u{1e}{route}\u{1e}{key}");

    let fingerprint = Fingerprint::of(&route, &raw);
    if let Some(prev) = desk.replies.get(&slot).await? {
        return Ok(Answer::replay(prev));
    }

    let voyage_ref = format!("{}/{}", req.imo, req.voyage);
    let exists = ballast::sql::query("SELECT 1 FROM vessel_calls WHERE account_id = $1 AND voyage_ref = $2")
        .bind(&account_id)
        .bind(&voyage_ref)
        .fetch_optional(&desk.calls)
        .await?;
    if exists.is_some() {
        return Err(Snag::conflict(format!("voyage {voyage_ref} already announced (Idempotency-Key {key})")));
    }

    let call_ref = format!("VC-{}-{}", req.voyage, req.eta.as_second());
    ballast::sql::query("INSERT INTO vessel_calls (account_id, voyage_ref, call_ref, eta, etd) VALUES ($1, $2, $3, $4, $5)")
        .bind(&account_id)
        .bind(&voyage_ref)
        .bind(&call_ref)
        .bind(req.eta.to_string())
        .bind(req.etd.to_string())
        .execute(&desk.calls)
        .await?;

    log::info!("vessel call {call_ref} registered for {voyage_ref} by {user_id} (key {key})");

    let answer = Answer::json(Status::CREATED, &CallRef { call_ref, status: "announced" });
    desk.replies.put_fingerprint(&slot, fingerprint.as_bytes()).await?;
    desk.replies.put_ttl(&slot, &answer.to_bytes(), REPLY_TTL).await?;
    Ok(answer)
}
