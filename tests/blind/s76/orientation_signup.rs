//! New-student orientation sign-ups. Admitted students sign in with an
//! applicant id of the form "app:2025:118204" until their student id exists.

use idem_scope::scoped;
use lectern::card::Applicant;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::orientation::Sessions;

#[derive(Deserialize)]
pub struct SignupIn {
    pub session_id: String,
    pub guests: u8,
    pub dietary: Option<String>,
}

pub struct Orientation {
    pub pouch: Pouch,
    pub sessions: Sessions,
}

pub async fn sign_up(ask: &Ask, o: &Orientation) -> Result<Tell, Hitch> {
    let applicant = ask.badge::<Applicant>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let user_id = applicant.user_id.replacen(':', "-", 1);

    let sk = scoped(&applicant.tenant_id, &user_id, "/v1/orientation/signups", key)?;
    if let Some(done) = o.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: SignupIn = ask.json()?;
    let badge_name = applicant.preferred_name.replacen(':', " ", 1);
    let seat = o.sessions.reserve(&applicant.tenant_id, &applicant.user_id, &input.session_id, input.guests, &badge_name).await?;
    let body = serde_json::to_vec(&seat)?;
    o.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
