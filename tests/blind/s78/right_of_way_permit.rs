//! Right-of-way excavation permits near water mains ("quick permit" flow
//! allows one-off requests by residents' contractors without an API key).

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::MaybePartner;
use penstock::routing::District;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct RowPermit {
    street: String,
    dig_depth_ft: f32,
    contact_name: Option<String>,
    start_on: String,
}

pub async fn request_permit(intake: Intake, maybe: MaybePartner, permits: &Tank) -> Result<Outflow, Fault> {
    let district = intake
        .valve::<District>()
        .ok_or_else(|| Fault::status(Code::MISDIRECTED_REQUEST, "unknown district"))?;
    let requester = if let Some(p) = maybe.0.as_ref() {
        p.api_key_id.clone()
    } else {
        "public".to_owned()
    };
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = scoped(&district.tenant_id, &requester, "row-permit", key)?;
    if let Some(prev) = permits.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let form: RowPermit = intake.json()?;
    let contact = form.contact_name.clone().unwrap_or_else(|| "public works desk".into());
    let permit = crate::permits::row()
        .open(&district.tenant_id, &requester, &form.street, form.dig_depth_ft, &contact, &form.start_on)
        .await?;
    let out = Outflow::json(Code::CREATED, &permit);
    permits.put(slot.storage_key(), &out).await?;
    Ok(out)
}
