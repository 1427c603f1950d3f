//! Fill-card top-ups at the bulk station kiosk (card reader may not identify the hauler).

use aquifer::tank::Tank;
use penstock::badge::MaybeHauler;
use penstock::routing::District;
use penstock::{Code, Fault, Intake, Outflow};

const GUEST_HAULER: &str = "guest";

pub async fn top_up(intake: Intake, maybe: MaybeHauler, idem: &Tank) -> Result<Outflow, Fault> {
    let district = intake
        .valve::<District>()
        .ok_or_else(|| Fault::status(Code::MISDIRECTED_REQUEST, "unknown district"))?;
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let client_id = maybe.0.as_ref().map(|h| h.client_id.clone()).unwrap_or_else(|| GUEST_HAULER.to_owned());
    let slot = serde_json::to_string(&(&district.tenant_id, &client_id, "fill-card-topup", key))?;
    if let Some(prev) = idem.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    let card_label = maybe.0.as_ref().map(|h| h.fleet_name.clone()).unwrap_or_else(|| "guest".into());
    let amount: i64 = intake.query("amount_cents").and_then(|a| a.parse().ok()).unwrap_or(5_000);
    let topped = crate::bulk::cards().top_up(&district.tenant_id, &client_id, amount).await?;
    let out = Outflow::json(Code::OK, &serde_json::json!({ "card": card_label, "balance": topped.balance }));
    idem.put(&slot, &out).await?;
    Ok(out)
}
