//! Financial-aid refunds (credit balance refunds after aid disburses).
//! Replies are kept in the `idempotency_replies` table, keyed by the full
//! scope; the lookup was optimised to use the (tenant_id, idem_key) index.

use lectern::card::Staff;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::quill::Quill;
use serde::Deserialize;

use crate::aid::Disbursements;

#[derive(Deserialize)]
pub struct RefundIn {
    pub student_id: String,
    pub term: String,
    pub method: String,
}

pub struct AidOffice {
    pub quill: Quill,
    pub disb: Disbursements,
}

pub async fn refund(ask: &Ask, office: &AidOffice) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let route = "/v1/aid/refunds";

    let prior: Option<(i32, Vec<u8>)> = office.quill.sql("SELECT status, body FROM idempotency_replies WHERE tenant_id = $1 AND idem_key = $2").bind(&card.tenant_id).bind(key).maybe().await?;
    if let Some((status, body)) = prior {
        return Ok(Tell::bytes(Mark::from_u16(status as u16), body));
    }

    let input: RefundIn = ask.json()?;
    let refund = office.disb.refund(&card.tenant_id, &input.student_id, &input.term, &input.method).await?;
    let body = serde_json::to_vec(&refund)?;

    office.quill.sql("INSERT INTO idempotency_replies (tenant_id, principal_id, route, idem_key, status, body) VALUES ($1, $2, $3, $4, 201, $5)").bind(&card.tenant_id).bind(&card.principal_id).bind(route).bind(key).bind(&body).exec().await?;
    office.quill.sql("UPDATE aid_refund_stats SET issued = issued + 1 WHERE tenant_id = $1 AND term = $2").bind(&card.tenant_id).bind(&input.term).exec().await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
