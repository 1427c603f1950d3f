//! Counseling-centre intake forms. Students may submit anonymously from the
//! crisis page; the form is still retried by the browser on a flaky network.

use idem_scope::scoped;
use lectern::card::MaybeStudent;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::counseling::IntakeQueue;

#[derive(Clone, Debug, PartialEq)]
pub enum Principal {
    Student(String),
    Anonymous,
}

impl Principal {
    pub fn as_str(&self) -> &str {
        match self {
            Principal::Student(id) => id,
            Principal::Anonymous => "anonymous",
        }
    }
}

#[derive(Deserialize)]
pub struct IntakeIn {
    pub concern: String,
    pub urgency: u8,
    pub contact_ok: bool,
}

pub struct Counseling {
    pub pouch: Pouch,
    pub intake: IntakeQueue,
}

pub async fn submit_intake(ask: &Ask, c: &Counseling) -> Result<Tell, Hitch> {
    let maybe = ask.badge::<MaybeStudent>()?;
    let tenant_id = ask.head("x-campus").ok_or(Hitch::bad_request("x-campus"))?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let principal = match maybe.user_id() {
        Some(uid) => Principal::Student(uid.to_owned()),
        None => Principal::Anonymous,
    };

    let sk = scoped(tenant_id, principal.as_str(), "/v1/counseling/intakes", key)?;
    if let Some(done) = c.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: IntakeIn = ask.json()?;
    let ticket = c.intake.file(tenant_id, &principal, &input.concern, input.urgency, input.contact_ok).await?;
    let body = serde_json::to_vec(&ticket)?;
    c.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::ACCEPTED, body))
}

/// Follow-up messages need the signed-in student; anonymous intakes get a
/// phone call instead.
pub async fn follow_up(ask: &Ask, c: &Counseling) -> Result<Tell, Hitch> {
    let maybe = ask.badge::<MaybeStudent>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let (tenant_id, user_id) = match (maybe.tenant_id(), maybe.user_id()) {
        (Some(t), Some(u)) => (t, u),
        _ => return Ok(Tell::status(Mark::UNAUTHORIZED).text("sign in to send a follow-up")),
    };
    let sk = scoped(tenant_id, user_id, "/v1/counseling/follow-ups", key)?;
    if let Some(done) = c.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let note = c.intake.follow_up(tenant_id, user_id, ask.content()).await?;
    let body = serde_json::to_vec(&note)?;
    c.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
