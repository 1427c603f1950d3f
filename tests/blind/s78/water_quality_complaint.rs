//! Taste, odour and discolouration complaints (may be filed without signing in).

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::MaybeCustomer;
use penstock::routing::District;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct Complaint {
    kind: String,
    address: String,
    sample_ok: bool,
}

pub async fn file_complaint(intake: Intake, maybe: MaybeCustomer, idem: &Tank) -> Result<Outflow, Fault> {
    let tenant_id = intake
        .valve::<District>()
        .map(|d| d.tenant_id.clone())
        .ok_or_else(|| Fault::status(Code::MISDIRECTED_REQUEST, "unknown district"));
    let tenant_id = tenant_id?;
    let reporter = maybe.0.as_ref().map_or("anonymous".to_owned(), |c| c.user_id.clone());
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = scoped(&tenant_id, &reporter, "wq-complaint", key)?;
    if let Some(prev) = idem.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let c: Complaint = intake.json()?;
    let ticket = crate::quality::complaints().open(&tenant_id, &reporter, &c.kind, &c.address, c.sample_ok).await?;
    let out = Outflow::json(Code::CREATED, &ticket);
    idem.put(slot.storage_key(), &out).await?;
    Ok(out)
}
