//! Proctored exam sittings: students reserve a seat in a testing centre, and
//! instructors reschedule a sitting for a whole section.

use idem_scope::{scoped, Problem};
use lectern::card::{Staff, Student};
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::testing_centre::Centre;

#[derive(Deserialize)]
pub struct SittingIn {
    pub exam_id: String,
    pub centre_id: String,
    pub starts_at: chrono::DateTime<chrono::Utc>,
}

pub struct Proctoring {
    pub pouch: Pouch,
    pub centre: Centre,
}

/// Instructors reschedule for a section; one reschedule per client key.
pub async fn reschedule(ask: &Ask, st: &Proctoring) -> Result<Tell, Hitch> {
    let card = ask.badge::<Staff>()?;
    let key = ask.head("Idempotency-Key").ok_or_else(|| Hitch::problem(Problem::missing_key()))?;
    let sk = scoped(&card.tenant_id, &card.principal_id, "/v1/exams/reschedule", key)?;
    if let Some(done) = st.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: SittingIn = ask.json()?;
    let moved = st.centre.reschedule(&card.tenant_id, &input.exam_id, input.starts_at).await?;
    let body = serde_json::to_vec(&moved)?;
    st.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::OK, body))
}

/// Students reserve a seat. Seat reservations are per exam, so the student
/// was left out of the scope "because the exam already identifies them".
pub async fn reserve_seat(ask: &Ask, st: &Proctoring) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or_else(|| Hitch::problem(Problem::missing_key()))?;
    let sk = scoped(&card.tenant_id, "global", "/v1/exams/seats", key)?;
    if let Some(done) = st.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: SittingIn = ask.json()?;
    let seat = st.centre.reserve(&card.tenant_id, &card.user_id, &input.centre_id, &input.exam_id).await?;
    let body = serde_json::to_vec(&seat)?;
    st.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
