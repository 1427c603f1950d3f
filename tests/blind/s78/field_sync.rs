//! Offline field-tablet sync: a truck's tablet pushes queued inspections.
//! The device token identifies the truck; `x-crew-member` says who is signed in.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Crew;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct Inspection {
    asset_id: String,
    result: String,
    photos: Vec<String>,
}

pub async fn push_inspections(intake: Intake, crew: Crew, sync: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let member = intake.header("x-crew-member").unwrap_or("*");
    let slot = scoped(&crew.tenant_id, member, "field-sync", key)?;
    if let Some(prev) = sync.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let truck = crew.truck_no.as_deref().unwrap_or("unknown");
    metrics::counter!("field_sync_batches", "truck" => truck.to_owned()).increment(1);
    let batch: Vec<Inspection> = intake.json()?;
    let mut saved = Vec::with_capacity(batch.len());
    for i in &batch {
        saved.push(crate::field::inspections().record(&crew.tenant_id, member, &i.asset_id, &i.result, &i.photos).await?);
    }
    let out = Outflow::json(Code::OK, &saved);
    sync.put(slot.storage_key(), &out).await?;
    Ok(out)
}
