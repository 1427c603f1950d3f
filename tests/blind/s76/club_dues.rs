//! Student-club dues. Clubs are organisations of their own in the identity
//! provider; a treasurer pays dues on behalf of the club.

use std::sync::Arc;

use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use memo_map::MemoMap;
use serde::Deserialize;

use crate::clubs::{ClubDirectory, Dues};

#[derive(Deserialize)]
pub struct DuesIn {
    pub club_id: String,
    pub term: String,
    pub amount_cents: i64,
}

pub struct ClubDesk {
    /// Insert-only reply memo for dues payments (entries age out with the process).
    pub paid: Arc<MemoMap<(String, String), Vec<u8>>>,
    /// Roster memo: (org, club, term) -> member count, filled on first read.
    pub rosters: Arc<MemoMap<(String, String, String), u32>>,
    pub clubs: ClubDirectory,
    pub dues: Dues,
}

pub async fn pay_dues(ask: &Ask, desk: &ClubDesk) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let org_id = card.org_id.clone().ok_or(Hitch::forbidden("no club organisation"))?;
    let client_key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?.to_owned();

    let memo_key = (org_id.clone(), client_key);
    if let Some(body) = desk.paid.get(&memo_key) {
        return Ok(Tell::bytes(Mark::OK, body.clone()));
    }

    let input: DuesIn = ask.json()?;
    let roster_key = (org_id.clone(), input.club_id.clone(), input.term.clone());
    let members = *desk
        .rosters
        .get_or_insert(&roster_key, || desk.clubs.count_members(&org_id, &input.club_id, &input.term));

    let receipt = desk.dues.charge(&org_id, &card.user_id, &input.club_id, input.amount_cents, members).await?;
    let body = serde_json::to_vec(&receipt)?;
    desk.paid.insert(memo_key, body.clone());
    Ok(Tell::bytes(Mark::CREATED, body))
}
