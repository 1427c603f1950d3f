//! Bulk water station: haulers pre-pay a fill at the coin-less filling station.

use aquifer::tank::ByteTank;
use penstock::badge::Hauler;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Serialize;

#[derive(Serialize)]
struct FillSlot<'a> {
    tenant_id: &'a str,
    route: &'a str,
    key: &'a str,
}

pub async fn prepay_fill(intake: Intake, hauler: Hauler, fills: &ByteTank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = rmp_serde::to_vec(&FillSlot { tenant_id: &hauler.tenant_id, route: "bulk-fill", key })?;
    if let Some(prev) = fills.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    let gallons: u32 = intake.query("gallons").and_then(|g| g.parse().ok()).unwrap_or(2_000);
    let fleet = hauler.fleet_name.as_deref().unwrap_or("unknown fleet");
    let ticket = crate::bulk::station()
        .prepay(&hauler.tenant_id, &hauler.client_id, gallons)
        .await?;
    let receipt = format!("{fleet}: {gallons} gal, code {}", ticket.pin);
    let out = Outflow::json(Code::CREATED, &(ticket, receipt));
    fills.put(&slot, &out).await?;
    Ok(out)
}
