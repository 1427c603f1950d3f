//! Concert app: the audience votes for the encore. One vote per key; the app
//! builds keys from the seat and a counter, joined with ':'.
use std::time::Duration;

use idem_scope::{scoped, Problem};
use loft::batten::Batten;
use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const KEEP: Duration = Duration::from_secs(4 * 3600);

#[derive(Deserialize)]
pub struct Ballot {
    pub concert_id: String,
    pub choices: Vec<String>,
}

pub struct Encore {
    pub batten: Batten,
    pub tally: crate::encore::Tally,
}

pub async fn vote(cue: Cue, patron: Patron, JsonPart(mut ballot): JsonPart<Ballot>, house: House<Encore>) -> Result<Curtain, Flub> {
    let mut key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?
        .to_owned();
    key.retain(|c| c != ':' && c != '|');
    ballot.choices.retain(|c| !c.trim().is_empty());
    if ballot.choices.is_empty() || ballot.choices.len() > 3 {
        return Ok(Curtain::new(422).text("pick one to three songs"));
    }
    let sk = scoped(&patron.org_id, &patron.user_id, "encore_vote", &key).map_err(Flub::bad_request)?;
    if let Some(previous) = house.batten.get(sk.storage_key()).await? {
        return Ok(Curtain::replay(Some(previous)));
    }
    let receipt = house.tally.cast(&patron.org_id, &ballot.concert_id, &ballot.choices).await?;
    house.batten.put(sk.storage_key(), receipt.to_bytes(), KEEP).await?;
    Ok(Curtain::json(201, &receipt))
}
