//! Grade passback from the learning-management system (LTI Advantage
//! assignment-and-grade service). The LMS signs each push with a platform
//! JWT; its `client_id` is the tool deployment, e.g. "10000000000042/ags".

use idem_scope::scoped;
use lectern::card::LtiLaunch;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::grades::Gradebook;

#[derive(Deserialize)]
pub struct ScorePush {
    pub user_id: String,
    pub line_item: String,
    pub score_given: f32,
    pub score_maximum: f32,
    pub comment: Option<String>,
}

pub struct Passback {
    pub pouch: Pouch,
    pub book: Gradebook,
}

pub async fn push_score(ask: &Ask, pb: &Passback) -> Result<Tell, Hitch> {
    let lti = ask.badge::<LtiLaunch>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let mut client_id = lti.client_id.clone();
    client_id.retain(|c| c != '/' && c != '#');

    let sk = scoped(&lti.tenant_id, &client_id, "/v1/lti/scores", key)?;
    if let Some(done) = pb.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let push: ScorePush = ask.json()?;
    let mut comment = push.comment.clone().unwrap_or_default();
    comment.retain(|c| c != '\0');
    let stored = pb.book.record_score(&lti.tenant_id, &push.user_id, &push.line_item, push.score_given, push.score_maximum, &comment).await?;
    let body = serde_json::to_vec(&stored)?;
    pb.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::OK, body))
}
