//! Webhooks from the port community system (PCS): customs status changes
//! and line releases. Brokers can also push a status correction through the
//! same endpoint family with their own key.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Broker;
use hawser::{Answer, Call, Snag, Status};
use hmac::{Hmac, Mac};
use idem_scope::{scoped, scoped_server};
use serde::Deserialize;
use sha2::Sha256;

#[derive(Deserialize)]
pub struct PcsEvent {
    pub org_id: String,
    pub kind: String,
    pub container_no: String,
    pub status: String,
}

#[derive(Deserialize)]
pub struct StatusCorrection {
    pub container_no: String,
    pub status: String,
    pub note: String,
}

pub struct Hooks {
    pub replies: Hold,
    pub secret: Vec<u8>,
    pub status: status_core::Board,
}

fn verify(secret: &[u8], body: &[u8], sig: Option<&str>) -> bool {
    let Some(sig) = sig.and_then(|s| hex::decode(s).ok()) else { return false };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("hmac key");
    mac.update(body);
    mac.verify_slice(&sig).is_ok()
}

pub async fn pcs_customs(h: Shared<Hooks>, call: Call) -> Result<Answer, Snag> {
    let body = call.body().await?;
    if !verify(&h.secret, &body, call.header("X-Pcs-Signature")) {
        return Err(Snag::unauthorized());
    }
    let delivery = call.header("X-Delivery-Id").ok_or_else(|| Snag::bad_request("delivery id"))?;
    let ev: PcsEvent = serde_json::from_slice(&body).map_err(Snag::bad_request)?;

    let key = scoped(&ev.org_id, "pcs", call.route_template(), delivery).map_err(Snag::bad_request)?;
    if h.replies.exists(key.storage_key()).await? {
        return Ok(Answer::status(Status::OK));
    }
    h.status.apply(&ev.container_no, &ev.kind, &ev.status).await?;
    h.replies.put(key.storage_key(), b"applied").await?;
    Ok(Answer::status(Status::OK))
}

pub async fn pcs_line_release(h: Shared<Hooks>, call: Call) -> Result<Answer, Snag> {
    let body = call.body().await?;
    if !verify(&h.secret, &body, call.header("X-Pcs-Signature")) {
        return Err(Snag::unauthorized());
    }
    let delivery = call.header("X-Delivery-Id").ok_or_else(|| Snag::bad_request("delivery id"))?;
    let ev: PcsEvent = serde_json::from_slice(&body).map_err(Snag::bad_request)?;

    let key = scoped_server(&ev.org_id, "pcs", call.route_template(), delivery).map_err(Snag::bad_request)?;
    if h.replies.exists(key.storage_key()).await? {
        return Ok(Answer::status(Status::OK));
    }
    h.status.apply(&ev.container_no, &ev.kind, &ev.status).await?;
    h.replies.put(key.storage_key(), b"applied").await?;
    Ok(Answer::status(Status::OK))
}

pub async fn broker_correction(h: Shared<Hooks>, b: Broker, call: Call, Json(c): Json<StatusCorrection>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let key = scoped(&b.account_id, &b.user_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = h.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let corrected = h.status.correct(&c.container_no, &c.status, &c.note, &b.user_id).await?;
    let answer = Answer::json(Status::OK, &corrected);
    h.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
