//! Overnight ski tuning orders dropped at the workshop.

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn order_tune(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let idem = turn
        .header("Idempotency-Key")
        .ok_or_else(|| Wipeout::bad_request("Idempotency-Key required"))?
        .to_owned();
    let tenant_id = skier.tenant_id.as_str();

    let slot = serde_json::to_vec(&(tenant_id, &idem)).map_err(Wipeout::internal)?;
    if let Some(prev) = drift.get(&slot).await? {
        return Ok(Carve::replayed(prev));
    }

    let order: crate::workshop::TuneOrder = turn.json()?;
    let ticket = crate::workshop::accept(&order).await?;
    let full = serde_json::to_vec(&(tenant_id, &skier.user_id, "workshop.tune", &idem)).map_err(Wipeout::internal)?;
    drift.put(&full, &ticket.to_json()).await?;
    Ok(Carve::created(ticket.to_json()))
}
