//! Fuel prepay contracts (diesel, propane) locked at today's rack price
//! for delivery over the winter.

use bushel::crock::Crock;
use bushel::stubs::Stubs;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Fault, Petition, Ruling, Shared};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Prepay {
    pub product: String,
    pub gallons: u32,
    pub tank_id: String,
}

pub struct Energy {
    pub crock: Crock,
    pub stubs: Stubs,
    pub rack: RackPricing,
    pub supplier: FuelSupplier,
}

pub async fn lock_prepay(p: Petition, Shared(e): Shared<Energy>, g: Grower, Json(req): Json<Prepay>) -> Result<Ruling, Fault> {
    let k = p.header("Idempotency-Key").ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&g.org_id, &g.user_id, "fuel_prepay", k)?;
    if !e.crock.try_claim(key.storage_key()).await? {
        return Ok(Ruling::problem(Problem::in_progress(k)));
    }

    let contract = async {
        let price = e.rack.quote(&req.product).await?;
        let order = e.supplier.book(&g.org_id, &req.tank_id, req.gallons, price).await?;
        Ok::<_, Fault>(order)
    }
    .await?;

    let body = furrow::codec::to_vec(&contract)?;
    e.crock.complete(key.storage_key(), &body).await?;
    Ok(Ruling::created().bytes(body))
}

pub async fn top_off(p: Petition, Shared(e): Shared<Energy>, g: Grower, Json(req): Json<Prepay>) -> Result<Ruling, Fault> {
    let k = p.header("Idempotency-Key").ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&g.org_id, &g.user_id, "fuel_top_off", k)?;
    if !e.crock.try_claim(key.storage_key()).await? {
        return Ok(Ruling::problem(Problem::in_progress(k)));
    }
    let outcome = async {
        let price = e.rack.quote(&req.product).await?;
        e.supplier.book(&g.org_id, &req.tank_id, req.gallons, price).await
    }
    .await;
    let order = match outcome {
        Ok(o) => o,
        Err(err) => {
            let _ = e.crock.release(key.storage_key()).await;
            return Err(err.into());
        }
    };
    let body = furrow::codec::to_vec(&order).unwrap_or_default();
    e.crock.complete(key.storage_key(), &body).await?;
    Ok(Ruling::created().bytes(body))
}

/// Tank monitor refills: the stub releases itself when dropped unless it is
/// completed.
pub async fn monitor_refill(p: Petition, Shared(e): Shared<Energy>, g: Grower, Json(req): Json<Prepay>) -> Result<Ruling, Fault> {
    let k = p.header("Idempotency-Key").ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&g.org_id, &g.user_id, "tank_refill", k)?;
    let stub = e.stubs.reserve(key.storage_key()).await?;
    let price = e.rack.quote(&req.product).await?;
    let order = e.supplier.book(&g.org_id, &req.tank_id, req.gallons, price).await?;
    let body = furrow::codec::to_vec(&order)?;
    stub.complete(&body).await?;
    Ok(Ruling::created().bytes(body))
}
