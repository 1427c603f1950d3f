//! Tower lease payments: station engineers pay the monthly rent of the
//! transmitter sites the network leases space on.

use std::time::Duration;

use crosspoint::badge::Engineer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::Deserialize;
use spool::cart::Cart;

const IDEM: &str = "Idempotency-Key";
const ROUTE: &str = "/v1/tower-leases/pay";
const LOOKUP_BUDGET: Duration = Duration::from_millis(150);

#[derive(Deserialize)]
pub struct LeasePayment {
    pub site_id: String,
    pub period: String,
    pub amount_cents: i64,
}

pub async fn pay_lease(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let eng = inb.badge::<Engineer>().ok_or(Glitch::unauthorized())?;
    let k = inb.header(IDEM).ok_or(Glitch::missing_key())?.to_owned();

    let slot = serde_json::to_string(&(ROUTE, &eng.sub, &k)).map_err(Glitch::internal)?;
    let prior = tokio::select! {
        hit = cart.get(&slot) => hit?,
        _ = tokio::time::sleep(LOOKUP_BUDGET) => None,
    };
    if let Some(prior) = prior {
        return Ok(Outbound::replay(prior));
    }

    let payment: LeasePayment = inb.json().await?;
    let paid = crate::sites::pay_rent(&eng.org_id, &payment.site_id, &payment.period, payment.amount_cents).await?;
    cart.put(&slot, &serde_json::to_vec(&paid).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &paid))
}
