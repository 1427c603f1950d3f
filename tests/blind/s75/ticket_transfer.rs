//! Ticket transfers between patrons. Patron accounts span venues, so the
//! venue group a transfer belongs to is chosen per request.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(24 * 3600);

#[derive(Deserialize)]
pub struct Transfer {
    pub ticket_ids: Vec<String>,
    pub to_email: String,
    pub message: Option<String>,
    pub notify_count: Option<u8>,
}

pub struct Transfers {
    pub batten: Batten,
    pub wallet: crate::tickets::Wallet,
}

pub async fn transfer(cue: Cue, patron: Patron, JsonPart(req): JsonPart<Transfer>, house: House<Transfers>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let org = cue.header("X-Venue-Org").map(str::to_owned).unwrap_or_default();
    let message = req.message.clone().unwrap_or_default();
    let reminders = req.notify_count.unwrap_or_default();
    let sk = scoped(&org, &patron.user_id, "transfer_tickets", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("transfer_tickets", cue.body());
    match house.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let moved = house
                .wallet
                .transfer(&org, &patron.user_id, &req.ticket_ids, &req.to_email, &message, reminders)
                .await?;
            let body = serde_json::to_vec(&moved).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(200, body))
        }
    }
}
