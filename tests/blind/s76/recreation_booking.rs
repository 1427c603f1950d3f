//! Recreation-centre court and lane bookings. Consortium members (students of
//! partner colleges) may book, and their bookings are scoped to the partner
//! college when the card says so.

use idem_scope::scoped;
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::recreation::Courts;

#[derive(Deserialize)]
pub struct CourtIn {
    pub facility: String,
    pub slot: String,
    pub party_size: Option<u8>,
}

pub struct Rec {
    pub pouch: Pouch,
    pub courts: Courts,
}

pub async fn book_court(ask: &Ask, rec: &Rec) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let org_id: &str = if card.is_consortium_guest() {
        "*"
    } else {
        &card.tenant_id
    };

    let sk = scoped(org_id, &card.user_id, "/v1/recreation/courts", key)?;
    if let Some(done) = rec.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: CourtIn = ask.json()?;
    let party = input.party_size.unwrap_or(1);
    let booking = rec.courts.book(&card.tenant_id, &card.user_id, &input.facility, &input.slot, party).await?;
    let body = serde_json::to_vec(&booking)?;
    rec.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
