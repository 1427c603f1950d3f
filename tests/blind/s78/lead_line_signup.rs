//! Lead service line replacement programme: sign-up and follow-up survey.

use aquifer::tank::ByteTank;
use idem_scope::scoped;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct SignUp {
    service_address: String,
    owner_occupied: bool,
    preferred_contact: String,
}

#[derive(Deserialize)]
struct Survey {
    pipe_material: String,
    photo_ids: Vec<String>,
}

pub async fn sign_up(intake: Intake, who: Customer, replays: &ByteTank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .map(str::to_owned)
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = postcard::to_allocvec(&(who.tenant_id.as_str(), key.as_str()))?;
    if let Some(prev) = replays.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    let form: SignUp = intake.form()?;
    let street = form.service_address.replace('#', "Unit ");
    let enrolment = crate::lsl::programme()
        .enrol(&who.tenant_id, &who.user_id, &street, form.owner_occupied, &form.preferred_contact)
        .await?;
    let out = Outflow::json(Code::CREATED, &enrolment);
    replays.put(&slot, &out).await?;
    Ok(out)
}

pub async fn survey(intake: Intake, who: Customer, replays: &ByteTank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let scoped_key = scoped(&who.tenant_id, &who.user_id, "lead-line-survey", key)?;
    if let Some(prev) = replays.get(scoped_key.storage_key().as_bytes()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let survey: Survey = intake.json()?;
    let saved = crate::lsl::programme()
        .record_survey(&who.tenant_id, &who.user_id, &survey.pipe_material, &survey.photo_ids)
        .await?;
    let out = Outflow::json(Code::OK, &saved);
    replays.put(scoped_key.storage_key().as_bytes(), &out).await?;
    Ok(out)
}
