//! Drivers open support tickets from the app; agents reply from the help
//! desk. Agent ids look like `team#42`.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::{AgentSession, MaybeAgent};
use trellis::{Code, Cx, Reply};

pub async fn agent_reply(cx: Cx, agent: MaybeAgent, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let Some(caller_id) = agent.0.as_ref().map(|a: &AgentSession| a.caller_id.replace('#', "")) else {
        return Reply::status(Code::UNAUTHORIZED);
    };
    let org_id = agent.0.as_ref().map(|a| a.org_id.clone()).unwrap_or_default();
    let ticket = cx.param("ticket").unwrap_or_default();
    let subject = cx.header("X-Subject").unwrap_or("").replace('#', "No. ");
    let Ok(sk) = scoped(&org_id, &caller_id, "/v1/tickets/reply", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if bin.exists(sk.storage_key()).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    crate::helpdesk::reply(&ticket, &subject, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), b"sent").await;
    Reply::status(Code::CREATED)
}
