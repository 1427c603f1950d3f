//! Berth window requests from shipping lines: a line asks for a berth window
//! for a vessel call; planning confirms or counter-proposes.

use ballast::hold::{Begun, Hold};
use ballast::slots::{Slots, Window};
use hawser::extract::{FromRequestParts, Json, Parts, Shared};
use hawser::pass::LineCred;
use hawser::{Answer, Snag, Status};
use idem_scope::{IdempotencyKey, Problem};
use serde::Deserialize;

/// The parsed `Idempotency-Key` of the request.
pub struct PortKey(pub String);

impl<S: Send + Sync> FromRequestParts<S> for PortKey {
    type Rejection = Snag;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Snag> {
        let raw = parts
            .headers
            .get("idempotency-key")
            .ok_or_else(|| Snag::problem(Problem::missing_key()))?;
        let parsed = IdempotencyKey::parse_lenient(raw.as_bytes())
            .map_err(|e| Snag::problem(Problem::invalid_key(&e.to_string())))?;
        Ok(PortKey(parsed.as_str().to_owned()))
    }
}

#[derive(Deserialize)]
pub struct WindowRequest {
    pub call_ref: String,
    pub berth: String,
    pub from: jiff::Timestamp,
    pub until: jiff::Timestamp,
}

pub struct Planning {
    pub replies: Hold,
    pub slots: Slots,
}

pub async fn request_window(
    planning: Shared<Planning>,
    line: LineCred,
    port_key: PortKey,
    Json(req): Json<WindowRequest>,
) -> Result<Answer, Snag> {
    let PortKey(k) = port_key;
    let pending = match planning.replies.begin(&k).await? {
        Begun::Fresh(p) => p,
        Begun::Done(prev) => return Ok(Answer::replay(prev)),
    };

    let hold = planning.slots.reserve(&req.berth, Window::new(req.from, req.until)).await?;
    let clash = berth_rules::check(&line.org_id, &req.call_ref, &hold).await?;
    if clash.is_some() {
        planning.slots.cancel(hold).await?;
        let answer = Answer::json(Status::CONFLICT, &clash);
        pending.complete(&answer.to_bytes()).await?;
        return Ok(answer);
    }
    let confirmed = planning.slots.commit(hold).await?;

    let answer = Answer::json(Status::CREATED, &confirmed);
    pending.complete(&answer.to_bytes()).await?;
    Ok(answer)
}
