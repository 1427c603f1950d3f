//! Outage and main-break alert subscriptions from the public outage map.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::MaybeCustomer;
use penstock::routing::District;
use penstock::{Code, Fault, Intake, Outflow};

pub async fn subscribe(intake: Intake, maybe: MaybeCustomer, alerts: &Tank) -> Result<Outflow, Fault> {
    let district = intake
        .valve::<District>()
        .ok_or_else(|| Fault::status(Code::MISDIRECTED_REQUEST, "unknown district host"))?;
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let user_id = maybe.0.as_ref().map(|c| c.user_id.clone()).unwrap_or_default();
    let slot = scoped(&district.tenant_id, &user_id, "outage-subscribe", key)?;
    if let Some(prev) = alerts.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let radius_km: u32 = intake.query("radius_km").and_then(|r| r.parse().ok()).unwrap_or_default();
    let lat_lng = intake.query("at").unwrap_or("0,0");
    let sub = crate::notices::outages().subscribe(&district.tenant_id, &user_id, lat_lng, radius_km).await?;
    let out = Outflow::json(Code::CREATED, &sub);
    alerts.put(slot.storage_key(), &out).await?;
    Ok(out)
}
