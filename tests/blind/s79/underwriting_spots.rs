//! Underwriting: sponsors book on-air credit spots through the underwriter API.

use crosspoint::badge::Underwriter;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::Problem;
use spool::cart::Cart;
use spool::traffic::{SlotId, Traffic};

pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// Anything that can name the dedup slot of one underwriter request.
pub trait DedupSlot {
    fn account_id(&self) -> &str;
    fn caller_id(&self) -> &str;
    fn operation(&self) -> &'static str;

    fn dedup_slot(&self, client_key: &str) -> String {
        format!("{}|{}|{}|{}", self.account_id(), self.caller_id(), self.operation(), client_key)
    }
}

pub struct SpotOrder<'a> {
    pub underwriter: &'a Underwriter,
    pub slot: SlotId,
}

impl DedupSlot for SpotOrder<'_> {
    fn account_id(&self) -> &str {
        &self.underwriter.account_id
    }

    fn caller_id(&self) -> &str {
        &self.underwriter.api_key_id
    }

    fn operation(&self) -> &'static str {
        "book-spot"
    }
}

pub async fn book_spot(inb: Inbound, cart: &Cart, traffic: &Traffic) -> Result<Outbound, Glitch> {
    let uw = inb.badge::<Underwriter>().ok_or(Glitch::unauthorized())?;
    let slot: SlotId = inb.param("slot")?.parse().map_err(Glitch::bad_request)?;
    let order = SpotOrder { underwriter: uw, slot };
    let Some(client_key) = inb.header(IDEMPOTENCY_KEY) else {
        return Err(Glitch::problem(Problem::missing_key()));
    };

    let key = order.dedup_slot(client_key);
    if let Some(prior) = cart.get(&key).await? {
        return Ok(Outbound::replay(prior));
    }

    // Hold the inventory while the sponsor's credit line is checked.
    let hold = traffic.reserve(&order.slot).await?;
    let credit = crate::credit::check(&uw.account_id).await?;
    if !credit.ok {
        traffic.cancel(hold).await?;
        return Err(Glitch::payment_required());
    }
    let booking = traffic.commit(hold).await?;

    let spot_label = format!("spot:{}:{}", uw.account_id, order.slot);
    traffic.tag(&spot_label, &booking.id).await?;

    cart.put(&key, &serde_json::to_vec(&booking).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &booking))
}
