//! Operations console: manual yard overrides (lift an operational hold,
//! force a re-stow). The rules engine triggers the same overrides itself.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Staff;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, scoped_server};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Override {
    pub container_no: String,
    pub action: String,
    pub reason: Option<String>,
}

pub struct RuleEvent {
    pub event_id: String,
    pub container_no: String,
    pub action: String,
}

pub struct Console {
    pub terminal_org: String,
    pub replies: Hold,
    pub yard: yard_api::Client,
}

pub async fn manual_override(c: Shared<Console>, staff: Option<Staff>, call: Call, Json(o): Json<Override>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let actor = if let Some(s) = staff.as_ref() {
        s.sub.clone()
    } else {
        String::from("system")
    };
    let reason = o.reason.clone().unwrap_or_default();

    let key = scoped(&c.terminal_org, &actor, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = c.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let done = c.yard.override_action(&o.container_no, &o.action, &reason, &actor).await?;
    let answer = Answer::json(Status::OK, &done);
    c.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn auto_override(c: &Console, ev: RuleEvent) -> Result<(), Snag> {
    let key = scoped_server(&c.terminal_org, "rules-engine", "/v1/overrides", &ev.event_id).map_err(Snag::internal)?;
    if c.replies.exists(key.storage_key()).await? {
        return Ok(());
    }
    c.yard.override_action(&ev.container_no, &ev.action, "rule", "rules-engine").await?;
    c.replies.put(key.storage_key(), b"done").await?;
    Ok(())
}
