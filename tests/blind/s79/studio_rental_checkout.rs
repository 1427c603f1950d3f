//! Studio rental checkout: outside producers pay for rented studio time,
//! online or at the front-desk terminal.

use std::time::Duration;

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::{scoped, ScopedKey};
use serde::Deserialize;
use spool::cart::{Cart, SyncCart};

use crate::pos::{Pos, Receipt, SyncPos};

const POS_TIMEOUT: Duration = Duration::from_secs(20);
const LEASE: Duration = Duration::from_secs(60);

#[derive(Deserialize)]
pub struct RentalOrder {
    pub booking_id: String,
    pub card_token: String,
    pub cents: i64,
}

pub async fn checkout(inb: Inbound, cart: &Cart, pos: &Pos) -> Result<Outbound, Glitch> {
    let p = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?.clone();
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
    let order: RentalOrder = inb.json().await?;
    let key = scoped(&p.org_id, &p.user_id, "/v1/studio-rentals/checkout", &k).map_err(Glitch::scope)?;

    cart.obtain(key.storage_key(), LEASE).await?;
    let charged = tokio::select! {
        r = pos.charge(&order.card_token, order.cents) => r,
        _ = tokio::time::sleep(POS_TIMEOUT) => return Err(Glitch::gateway_timeout()),
    };
    let receipt = match charged {
        Ok(r) => r,
        Err(e) => {
            cart.release(key.storage_key()).await?;
            return Err(e.into());
        }
    };
    cart.complete(key.storage_key(), &serde_json::to_vec(&receipt).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &receipt))
}

/// Releases the claim unless it was disarmed after completion.
struct ReleaseOnDrop<'a> {
    cart: &'a SyncCart,
    key: String,
    armed: bool,
}

impl Drop for ReleaseOnDrop<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.cart.release(&self.key);
        }
    }
}

pub fn desk_checkout(cart: &SyncCart, key: &ScopedKey, pos: &SyncPos, order: &RentalOrder) -> Result<Receipt, Glitch> {
    cart.claim(key.storage_key())?;
    let mut hold = ReleaseOnDrop { cart, key: key.storage_key().to_owned(), armed: true };
    let receipt = pos.charge(&order.card_token, order.cents)?;
    cart.complete(key.storage_key(), &serde_json::to_vec(&receipt).unwrap_or_default())?;
    hold.armed = false;
    Ok(receipt)
}
