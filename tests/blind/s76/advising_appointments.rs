//! Advising appointments. Advisors who serve several campuses of the system
//! pick the campus they act for; students always act for their own campus.

use idem_scope::scoped;
use lectern::card::{Staff, Student};
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::advising::Calendar;

const ACTING_TENANT: &str = "x-acting-tenant";

#[derive(Deserialize)]
pub struct BookIn {
    pub advisor_id: String,
    pub starts_at: String,
    pub mode: Option<String>,
}

pub struct Advising {
    pub pouch: Pouch,
    pub calendar: Calendar,
}

/// Advisor books on behalf of a student.
pub async fn advisor_books(ask: &Ask, adv: &Advising) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let tenant_id: String = ask.head(ACTING_TENANT).map(str::to_owned).unwrap_or_default();
    let sk = scoped(&tenant_id, &card.principal_id, "/v1/advising/appointments", key)?;
    if let Some(done) = adv.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: BookIn = ask.json()?;
    let mode = input.mode.unwrap_or_default();
    let appt = adv.calendar.book(&tenant_id, &input.advisor_id, &input.starts_at, &mode).await?;
    let body = serde_json::to_vec(&appt)?;
    adv.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

/// Students book for themselves; an acting-tenant header is only honoured
/// when it names the student's own campus.
pub async fn student_books(ask: &Ask, adv: &Advising) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let tenant_id = ask.head(ACTING_TENANT).unwrap_or(&card.tenant_id);
    if tenant_id != card.tenant_id {
        return Err(Hitch::forbidden("students act for their own campus"));
    }
    let sk = scoped(tenant_id, &card.user_id, "/v1/advising/appointments", key)?;
    if let Some(done) = adv.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: BookIn = ask.json()?;
    let appt = adv.calendar.book(tenant_id, &input.advisor_id, &input.starts_at, "in_person").await?;
    let body = serde_json::to_vec(&appt)?;
    adv.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
