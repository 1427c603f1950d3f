//! Guest relations: comments, complaints and goodwill credits filed from
//! the feedback form. A goodwill credit is money, so the form sends a key.

use enclosure::extract::{Form, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::Caller;

#[derive(Deserialize)]
pub struct Feedback {
    subject: String,
    body: String,
    visit_date: String,
    wants_credit: bool,
}

pub struct GuestRelations {
    pub replays: Tank,
    pub cases: crate::cases::CaseBook,
    pub mailer: crate::mail::Mailer,
}

pub async fn file(visit: Visit, Shared(gr): Shared<GuestRelations>, caller: Caller, Form(fb): Form<Feedback>) -> Result<Reply, Fault> {
    let key = visit
        .header("Idempotency-Key")
        .map(|k| k.trim_matches(|c: char| c == ':' || c.is_whitespace()))
        .ok_or_else(|| Fault::bad_request("key required"))?;
    let slot = scoped(&caller.org_id, &caller.user_id, "guest_relations.file", key).map_err(Fault::bad_request)?;
    if let Some(prev) = gr.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let case = gr.cases.open(&caller.org_id, &caller.user_id, &fb.subject, &fb.body, &fb.visit_date, fb.wants_credit).await?;
    let mail_subject = format!("Case {}: {}", case.number, fb.subject.replace(':', " -"));
    gr.mailer.acknowledge(&caller.user_id, &mail_subject).await.ok();
    let body = serde_json::to_vec(&case).map_err(Fault::internal)?;
    gr.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
