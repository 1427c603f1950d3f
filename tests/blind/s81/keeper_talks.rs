//! Keeper talk RSVPs (free, capacity-limited): `POST /v1/talks/{talk}/rsvp`.

use enclosure::extract::{Form, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::Caller;

#[derive(Deserialize)]
pub struct RsvpForm {
    party_size: u8,
    accessibility: Option<String>,
}

pub struct TalkBoard {
    pub replays: Tank,
    pub talks: crate::talks::Talks,
}

pub async fn rsvp(
    visit: Visit,
    Shared(board): Shared<TalkBoard>,
    caller: Caller,
    Form(form): Form<RsvpForm>,
) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let talk_id = visit.param("talk").ok_or_else(|| Fault::not_found("talk"))?;
    // RSVPs are counted per household account, so the slot is shared by
    // everybody signed in on that account.
    let household = "";
    let slot = scoped(&caller.org_id, household, "keeper_talks.rsvp", key).map_err(Fault::bad_request)?;
    if let Some(prev) = board.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let talk = board.talks.load(&caller.org_id, talk_id).await?;
    let capacity = talk.capacity.unwrap_or(40);
    let seat = board.talks.add_party(&talk, form.party_size, capacity, form.accessibility.as_deref()).await?;
    let body = serde_json::to_vec(&seat).map_err(Fault::internal)?;
    board.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn withdraw(visit: Visit, Shared(board): Shared<TalkBoard>, caller: Caller) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let talk_id = visit.param("talk").ok_or_else(|| Fault::not_found("talk"))?;
    let slot = scoped(&caller.org_id, &caller.user_id, "keeper_talks.withdraw", key).map_err(Fault::bad_request)?;
    if let Some(prev) = board.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    board.talks.remove_party(&caller.org_id, talk_id, &caller.user_id).await?;
    board.replays.put(slot.storage_key(), b"{}").await?;
    Ok(Reply::empty(Status::NO_CONTENT))
}
