//! SOLAS verified gross mass (VGM) submissions from shippers and their
//! forwarders. Submissions must reach the terminal before the VGM cut-off.

use ballast::hold::{Hold, Stored};
use hawser::extract::Shared;
use hawser::pass::LineCred;
use hawser::{Answer, Call, Snag, Status};
use hmac::{Hmac, Mac};
use idem_scope::{decide, scoped, Decision, Fingerprint, Problem, Record};
use serde::Deserialize;
use sha2::{Digest, Sha256};

#[derive(Deserialize)]
pub struct VgmSubmission {
    pub container_no: String,
    pub booking_ref: String,
    pub vgm_kg: u32,
    pub method: u8,
    pub signatory: String,
}

pub struct VgmDesk {
    pub replies: Hold,
    pub partner_secret: Vec<u8>,
    pub stowage: stowage::Planner,
}

fn body_digest(raw: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"vgm/");
    hasher.update(raw);
    format!("{:x}", hasher.finalize())
}

fn signature_ok(secret: &[u8], raw: &[u8], sig_hex: &str) -> bool {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("any key length");
    mac.update(raw);
    hex::decode(sig_hex).map(|sig| mac.verify_slice(&sig).is_ok()).unwrap_or(false)
}

pub async fn submit_vgm(desk: Shared<VgmDesk>, cred: LineCred, call: Call) -> Result<Answer, Snag> {
    let raw = call.body().await?;
    let sig = call.header("X-Partner-Signature").unwrap_or_default();
    if !signature_ok(&desk.partner_secret, &raw, sig) {
        return Err(Snag::unauthorized());
    }
    let sub: VgmSubmission = serde_json::from_slice(&raw).map_err(Snag::bad_request)?;
    let route = call.route_template();

    let header_key = call.header("Idempotency-Key").map(str::to_owned);
    let slot = scoped(&cred.org_id, &cred.api_key_id, route, &header_key.unwrap_or_else(|| body_digest(&raw))).map_err(Snag::bad_request)?;

    let fingerprint = Fingerprint::of(route, &raw);
    let existing = desk.replies.get_record(slot.storage_key()).await?;
    match decide(existing.as_ref(), &fingerprint) {
        Decision::Replay => return Ok(Answer::replay(desk.replies.get(slot.storage_key()).await?.unwrap_or_default())),
        Decision::InProgress => return Ok(Answer::problem(Problem::in_progress(slot.storage_key()))),
        Decision::Mismatch => return Ok(Answer::problem(Problem::mismatch(slot.storage_key()))),
        Decision::Proceed => {}
    }
    desk.replies.put_record(slot.storage_key(), &Record::in_progress(fingerprint)).await?;

    let outcome = desk.stowage.record_vgm(&sub.container_no, &sub.booking_ref, sub.vgm_kg, sub.method).await;
    let answer = match outcome {
        Ok(v) => Answer::json(Status::ACCEPTED, &v),
        Err(e) => {
            desk.replies.del(slot.storage_key()).await?;
            return Err(Snag::unprocessable(e.to_string()));
        }
    };
    desk.replies.put(slot.storage_key(), &Stored::completed(&answer)).await?;
    Ok(answer)
}
