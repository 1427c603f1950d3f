//! Employer gift matching for alumni donations. Matching portals of some
//! employers send retry tokens like "match:2024:0042"; colons were stripped
//! because an older key format used them as separators.

use idem_scope::scoped;
use lectern::card::Partner;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::advancement::Matching;

#[derive(Deserialize)]
pub struct MatchIn {
    pub donation_id: String,
    pub ratio_pct: u16,
    pub employer_name: String,
}

pub struct MatchDesk {
    pub pouch: Pouch,
    pub matching: Matching,
}

pub async fn record_match(ask: &Ask, desk: &MatchDesk) -> Result<Tell, Hitch> {
    let partner = ask.badge::<Partner>()?;
    let raw = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let token: String = raw.chars().filter(|c| *c != ':').collect();

    let sk = scoped(&partner.org_id, &partner.client_id, "/v1/advancement/matches", &token)?;
    if let Some(done) = desk.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: MatchIn = ask.json()?;
    let employer: String = input.employer_name.chars().filter(|c| !c.is_control()).collect();
    let matched = desk.matching.record(&partner.org_id, &input.donation_id, input.ratio_pct, &employer).await?;
    let body = serde_json::to_vec(&matched)?;
    desk.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
