//! IT help-desk tickets from the self-service portal. Updates to an existing
//! ticket carry an Idempotency-Key; new tickets are folded when the portal
//! double-posts the same description.

use idem_scope::{scoped, Fingerprint};
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::helpdesk::Queue;

#[derive(Deserialize)]
pub struct TicketIn {
    pub category: String,
    pub description: String,
    pub building: Option<String>,
}

#[derive(Deserialize)]
pub struct UpdateIn {
    pub comment: String,
}

pub struct Helpdesk {
    pub ticket_dedup: Pouch,
    pub queue: Queue,
}

pub async fn open_ticket(ask: &Ask, desk: &Helpdesk) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let input: TicketIn = ask.json()?;
    let near = simhash::simhash(&input.description);
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/helpdesk/tickets", &near.to_string())?;
    if let Some(existing) = desk.ticket_dedup.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, existing));
    }
    let building = input.building.as_deref().unwrap_or("unknown");
    let ticket = desk.queue.open(&card.tenant_id, &card.user_id, &input.category, &input.description, building).await?;
    let body = serde_json::to_vec(&ticket)?;
    desk.ticket_dedup.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn update_ticket(ask: &Ask, desk: &Helpdesk) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let ticket_id = ask.param("ticket").ok_or(Hitch::bad_request("ticket"))?;
    let route = "/v1/helpdesk/tickets/{ticket}/comments";
    let sk = scoped(&card.tenant_id, &card.user_id, route, key)?;
    let body_hash = Fingerprint::of(route, ask.content());
    if let Some(rec) = desk.ticket_dedup.get_record(sk.storage_key()).await? {
        if rec.fingerprint != body_hash {
            return Ok(Tell::problem(idem_scope::Problem::mismatch(key)));
        }
        return Ok(Tell::bytes(Mark::OK, rec.body));
    }
    let input: UpdateIn = ask.json()?;
    let note = desk.queue.comment(&card.tenant_id, ticket_id, &card.user_id, &input.comment).await?;
    let body = serde_json::to_vec(&note)?;
    desk.ticket_dedup.put_record(sk.storage_key(), &body_hash, &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
