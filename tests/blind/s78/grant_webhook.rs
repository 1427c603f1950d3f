//! Hardship grants: the state agency's signed webhooks, and the customer's
//! own self-report of an award letter.

use aquifer::tank::Tank;
use idem_scope::{scoped, scoped_server};
use p256::ecdsa::signature::hazmat::PrehashVerifier;
use p256::ecdsa::{Signature, VerifyingKey};
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;
use sha2::{Digest, Sha256};

#[derive(Deserialize)]
struct AgencyEvent {
    event_id: String,
    kind: String,
    tenant_id: String,
    user_id: String,
    award_cents: i64,
}

pub async fn self_report(intake: Intake, who: Customer, grants: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = scoped(&who.tenant_id, &who.user_id, "grant-self-report", key)?;
    if let Some(prev) = grants.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let letter_no = intake.param("letter_no").unwrap_or_default();
    let noted = crate::assistance::cases().note_letter(&who.tenant_id, &who.user_id, letter_no).await?;
    let out = Outflow::json(Code::ACCEPTED, &noted);
    grants.put(slot.storage_key(), &out).await?;
    Ok(out)
}

pub async fn agency_webhook(intake: Intake, grants: &Tank, agency_key: &VerifyingKey) -> Result<Outflow, Fault> {
    let sig_hex = intake
        .header("x-agency-signature")
        .ok_or_else(|| Fault::status(Code::UNAUTHORIZED, "unsigned"))?;
    let sig = Signature::from_slice(&hex::decode(sig_hex)?)?;
    let digest = Sha256::digest(intake.body());
    agency_key.verify_prehash(&digest, &sig).map_err(|_| Fault::status(Code::UNAUTHORIZED, "bad signature"))?;
    let delivery = intake
        .header("x-webhook-id")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "x-webhook-id required"))?;
    let evt: AgencyEvent = intake.json()?;
    let slot = match evt.kind.as_str() {
        "grant.awarded" => scoped(&evt.tenant_id, &evt.user_id, "grant-award", delivery)?,
        "grant.disbursed" => scoped_server(&evt.tenant_id, &evt.user_id, "grant-disbursed", &evt.event_id)?,
        _ => return Ok(Outflow::status(Code::NO_CONTENT, "ignored")),
    };
    if grants.exists(slot.storage_key()).await? {
        return Ok(Outflow::status(Code::OK, "duplicate"));
    }
    crate::assistance::cases().apply_award(&evt.tenant_id, &evt.user_id, evt.award_cents).await?;
    grants.put(slot.storage_key(), b"applied").await?;
    Ok(Outflow::status(Code::OK, "applied"))
}
