//! Export pre-advice and cancellation API for haulier dispatch systems.

use ballast::twin::TwinHold;
use hawser::extract::{Json, Shared};
use hawser::pass::Haulier;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct PreAdvice {
    pub booking_ref: String,
    pub container_no: String,
    pub seal_no: String,
    pub gross_kg: u32,
}

#[derive(Deserialize)]
pub struct Cancellation {
    pub pre_advice_id: String,
    pub reason: String,
}

pub struct Dispatch {
    pub twin: TwinHold,
    pub yard: yard_api::Client,
}

fn header_key(call: &Call) -> Result<String, Snag> {
    call.header("Idempotency-Key")
        .map(ToOwned::to_owned)
        .ok_or_else(|| Snag::problem(Problem::missing_key()))
}

pub async fn pre_advise(d: Shared<Dispatch>, h: Haulier, call: Call, Json(pa): Json<PreAdvice>) -> Result<Answer, Snag> {
    let key = header_key(&call)?;
    let entry = d.twin.entry(&h.account_id, &key).await?;
    if let Some(prev) = entry.value() {
        return Ok(Answer::replay(prev.clone()));
    }
    let id = d.yard.pre_advise(&pa.booking_ref, &pa.container_no, &pa.seal_no, pa.gross_kg).await?;
    let answer = Answer::json(Status::CREATED, &id);
    entry.fill(answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn cancel(d: Shared<Dispatch>, h: Haulier, call: Call, Json(c): Json<Cancellation>) -> Result<Answer, Snag> {
    let key = header_key(&call)?;
    let scoped_key = scoped(&h.account_id, &h.client_id, call.route_template(), &key).map_err(Snag::bad_request)?;
    let entry = d.twin.entry(&h.account_id, scoped_key.storage_key()).await?;
    if let Some(prev) = entry.value() {
        return Ok(Answer::replay(prev.clone()));
    }
    d.yard.cancel_pre_advice(&c.pre_advice_id, &c.reason).await?;
    let answer = Answer::status(Status::NO_CONTENT);
    entry.fill(answer.to_bytes()).await?;
    Ok(answer)
}
