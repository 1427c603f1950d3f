//! Archive digitisation: producers request digitisation of old tapes and
//! the desk uploads the transfer to the vault.

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;
use spool::vault::Vault;

/// Clients built against the 2021 SDK append a trailing colon to the key.
fn tidy(raw: &str) -> &str {
    raw.trim_end_matches(':')
}

#[derive(Deserialize)]
pub struct TransferRequest {
    pub tape_barcode: String,
    pub title: String,
    pub format: String,
}

pub async fn request_transfer(inb: Inbound, cart: &Cart, vault: &Vault) -> Result<Outbound, Glitch> {
    let p = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?.clone();
    let k = tidy(inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?).to_owned();

    let key = scoped(&p.org_id, &p.user_id, "/v1/archive/transfers", &k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let req: TransferRequest = inb.json().await?;
    let slug = req.title.replace('/', "-");
    let object = format!("transfers/{}/{}-{}.wav", p.org_id, req.tape_barcode, slug);
    vault.reserve_path(&object).await?;
    let ticket = crate::digitise::enqueue(&p.org_id, &req.tape_barcode, &req.format, &object).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&ticket).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::ACCEPTED, &ticket))
}
