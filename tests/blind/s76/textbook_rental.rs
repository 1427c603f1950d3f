//! Textbook rentals. The rental app copies the retry token out of a URL
//! fragment, so it sometimes arrives wrapped in '#' or '|' characters.

use idem_scope::scoped;
use lectern::card::Student;
use lectern::pluck::Pluck;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::bookstore::Rentals;

/// The client's `Idempotency-Key`, as sent.
pub struct RentalToken(pub String);

impl Pluck for RentalToken {
    async fn pluck(ask: &Ask) -> Result<Self, Hitch> {
        ask.head("Idempotency-Key")
            .map(|v| RentalToken(v.to_owned()))
            .ok_or(Hitch::bad_request("Idempotency-Key"))
    }
}

#[derive(Deserialize)]
pub struct RentalIn {
    pub isbn: String,
    pub term: String,
    pub shelf_tag: String,
}

pub struct RentalDesk {
    pub pouch: Pouch,
    pub rentals: Rentals,
}

pub async fn rent(ask: &Ask, card: Student, token: RentalToken, desk: &RentalDesk) -> Result<Tell, Hitch> {
    let cleaned = token.0.trim_matches(|c: char| c == '#' || c == '|');
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/bookstore/rentals", cleaned)?;
    if let Some(done) = desk.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: RentalIn = ask.json()?;
    let shelf = input.shelf_tag.trim_matches(|c: char| c == '#' || c.is_whitespace());
    let rental = desk.rentals.check_out(&card.tenant_id, &card.user_id, &input.isbn, &input.term, shelf).await?;
    let body = serde_json::to_vec(&rental)?;
    desk.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
