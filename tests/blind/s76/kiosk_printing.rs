//! Release stations for campus printing. The station scans a card and
//! releases queued jobs; the department code on the card decides who pays.

use idem_scope::scoped;
use lectern::card::Kiosk;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::print::{CardLookup, ReleaseQueue};

#[derive(Deserialize)]
pub struct ReleaseIn {
    pub card_uid: String,
    pub job_ids: Vec<String>,
    pub duplex: Option<bool>,
}

pub struct Stations {
    pub pouch: Pouch,
    pub cards: CardLookup,
    pub queue: ReleaseQueue,
}

pub async fn release_jobs(ask: &Ask, st: &Stations) -> Result<Tell, Hitch> {
    let kiosk = ask.badge::<Kiosk>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let input: ReleaseIn = ask.json()?;
    let holder = st.cards.lookup(&kiosk.tenant_id, &input.card_uid).await?;
    let account_id = holder.department.as_deref().filter(|d| !d.is_empty()).unwrap_or("none");

    let sk = scoped(account_id, &holder.user_id, "/v1/print/releases", key)?;
    if let Some(done) = st.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let duplex = input.duplex.unwrap_or(true);
    let released = st.queue.release(&kiosk.tenant_id, account_id, &holder.user_id, &input.job_ids, duplex).await?;
    let body = serde_json::to_vec(&released)?;
    st.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::OK, body))
}
