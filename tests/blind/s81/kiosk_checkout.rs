//! Lobby kiosks at the aquarium entrance: tickets and upgrades paid by card.

use enclosure::extract::{Json, Shared};
use enclosure::pass::{Kiosk, SiteOrg};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;
use sha2::{Digest, Sha256};

const ANONYMOUS: &str = "anonymous";

#[derive(Deserialize)]
pub struct KioskSale {
    items: Vec<String>,
    card_token: String,
    receipt_email: Option<String>,
}

pub struct KioskDesk {
    pub replays: Tank,
    pub tills: crate::tills::Tills,
}

pub async fn checkout(visit: Visit, Shared(desk): Shared<KioskDesk>, site: SiteOrg, Json(sale): Json<KioskSale>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let kiosk_pass = visit.pass::<Kiosk>();
    let caller_id: String = if let Some(k) = kiosk_pass.as_ref() {
        k.caller_id.clone()
    } else {
        ANONYMOUS.into()
    };

    let slot = scoped(&site.org_id, &caller_id, "kiosk.checkout", key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let receipt = desk.tills.charge(&site.org_id, &sale.items, &sale.card_token).await?;
    let body = serde_json::to_vec(&receipt).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    if let Some(email) = sale.receipt_email {
        desk.tills.email_receipt(&email, &receipt).await.ok();
    }
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn void_last(visit: Visit, Shared(desk): Shared<KioskDesk>, site: SiteOrg) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let Some(kiosk) = visit.pass::<Kiosk>() else {
        return Err(Fault::unauthorized("kiosk pass required to void"));
    };
    let slot = scoped(&site.org_id, &kiosk.caller_id, "kiosk.void", key).map_err(Fault::bad_request)?;
    // The till firmware caps record keys at 40 characters.
    let short = format!("{:.40x}", Sha256::digest(slot.storage_key().as_bytes()));
    if let Some(prev) = desk.replays.get(&short).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let voided = desk.tills.void_last(&site.org_id, &kiosk.caller_id).await?;
    let body = serde_json::to_vec(&voided).map_err(Fault::internal)?;
    desk.replays.put(&short, &body).await?;
    Ok(Reply::bytes(Status::OK, body))
}
