//! Heated ski-rack reservations at the gondola base station.

use anyhow::ensure;
use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn};

pub async fn reserve_rack(turn: Turn, skier: Skier, drift: &Drift) -> anyhow::Result<Carve> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("missing key"))?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "rack.reserve", key)?;
    let req: crate::racks::RackRequest = turn.json()?;

    let window = format!("ratelimit:{}:{}", skier.user_id, chrono::Utc::now().format("%H%M"));
    if !drift.set_nx(&window, b"1").await? {
        return Ok(Carve::too_many("slow down"));
    }
    ensure!(req.slots <= 4, "too many slots");

    if !drift.set_nx(sk.storage_key(), b"in_progress").await? {
        return Ok(Carve::conflict("reservation in progress"));
    }
    ensure!(req.station.is_some(), "station required");
    let rack = crate::racks::reserve(&skier, &req).await;
    drift.put(sk.storage_key(), rack.to_json().as_bytes()).await?;
    Ok(Carve::created(rack))
}
