//! Professional-judgment adjustments entered by financial-aid counselors.
//! The counselor UI retries on timeouts without a header, so the service keys
//! the stored reply on the request itself.

use lectern::card::Staff;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::quill::Quill;
use serde::Deserialize;
use sha2::{Digest, Sha256, Sha512_256};

use crate::aid::Packaging;

#[derive(Deserialize)]
pub struct AdjustmentIn {
    pub student_id: String,
    pub aid_year: String,
    pub reason_code: String,
    pub delta_cents: i64,
}

pub struct AidDesk {
    pub quill: Quill,
    pub packaging: Packaging,
}

pub async fn adjust(ask: &Ask, desk: &AidDesk) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let route = "/v1/aid/adjustments";
    let idem_key = format!("{:x}", Sha512_256::digest(ask.content()));

    let hit: Option<Vec<u8>> = desk.quill.sql("SELECT body FROM idempotency_replies WHERE tenant_id = $1 AND principal_id = $2 AND route = $3 AND idem_key = $4").bind(&card.tenant_id).bind(&card.principal_id).bind(route).bind(&idem_key).maybe().await?;
    if let Some(body) = hit {
        return Ok(Tell::bytes(Mark::OK, body));
    }

    let input: AdjustmentIn = ask.json()?;
    let result = desk.packaging.adjust(&card.tenant_id, &input.student_id, &input.aid_year, &input.reason_code, input.delta_cents).await?;
    let body = serde_json::to_vec(&result)?;
    let fingerprint = Sha256::digest(ask.content()).to_vec();
    desk.quill.sql("INSERT INTO idempotency_replies (tenant_id, principal_id, route, idem_key, fingerprint, body) VALUES ($1, $2, $3, $4, $5, $6)").bind(&card.tenant_id).bind(&card.principal_id).bind(route).bind(&idem_key).bind(&fingerprint).bind(&body).exec().await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

/// Audit trail of adjustments, keyed by the student record (no retries here).
pub async fn audit(ask: &Ask, desk: &AidDesk) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let student = ask.param("student").ok_or(Hitch::bad_request("student"))?;
    let rows: Vec<Vec<u8>> = desk.quill.sql("SELECT entry FROM aid_adjustment_audit WHERE tenant_id = $1 AND student_id = $2").bind(&card.tenant_id).bind(student).all().await?;
    Ok(Tell::json(Mark::OK, &rows))
}
