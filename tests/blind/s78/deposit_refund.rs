//! Deposit refunds when a tenant-occupant closes an account in good standing.

use aquifer::tank::Tank;
use idem_scope::{scoped, Fingerprint};
use penstock::badge::Customer;
use penstock::extract::RawBody;
use penstock::{Code, Fault, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct RefundRequest {
    service_no: String,
    mail_to: Option<String>,
    ach_token: Option<String>,
}

pub async fn refund_deposit(who: Customer, RawBody(raw): RawBody, idem: &Tank) -> Result<Outflow, Fault> {
    let req: RefundRequest = serde_json::from_slice(&raw)?;
    let slot = scoped(&who.tenant_id, &who.user_id, "deposit-refund", &hex::encode(libcrux_sha2::sha256(&raw)))?;
    if let Some(prev) = idem.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let fingerprint = Fingerprint::of("deposit-refund", &raw);
    let refund = crate::billing::deposits()
        .refund(&who.tenant_id, &who.user_id, &req.service_no, req.mail_to.as_deref(), req.ach_token.as_deref())
        .await?;
    let out = Outflow::json(Code::CREATED, &refund);
    idem.put_with_fingerprint(slot.storage_key(), &out, &fingerprint).await?;
    Ok(out)
}
