//! Towage orders: agents order tugs for berthing and unberthing, and amend
//! the number of tugs or the time.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::Problem;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct TugOrder {
    pub call_ref: String,
    pub manoeuvre: String,
    pub tugs: u8,
    pub at: jiff::Timestamp,
}

#[derive(Deserialize)]
pub struct TugAmendment {
    pub order_no: String,
    pub tugs: Option<u8>,
    pub at: Option<jiff::Timestamp>,
}

pub struct Towage {
    pub replies: Hold,
    pub dispatch: tug_dispatch::Client,
}

fn client_key(call: &Call) -> Result<String, Snag> {
    call.header("X-Idempotency-Key")
        .or_else(|| call.header("Idempotency-Key"))
        .map(str::to_owned)
        .ok_or_else(|| Snag::problem(Problem::missing_key()))
}

pub async fn order_tugs(t: Shared<Towage>, agent: Agent, call: Call, Json(o): Json<TugOrder>) -> Result<Answer, Snag> {
    let key = client_key(&call)?;
    let route = call.route_template();
    let slot = serde_json::to_string(&(&agent.account_id, route, &key))?;

    if let Some(prev) = t.replies.get(&slot).await? {
        return Ok(Answer::replay(prev));
    }
    let order = t.dispatch.order(&o.call_ref, &o.manoeuvre, o.tugs, o.at).await?;
    let answer = Answer::json(Status::CREATED, &order);
    t.replies.put(&slot, &answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn amend_order(t: Shared<Towage>, agent: Agent, call: Call, Json(a): Json<TugAmendment>) -> Result<Answer, Snag> {
    let key = client_key(&call)?;
    let route = call.route_template();
    let slot = serde_json::to_string(&(&agent.account_id, &agent.user_id, route, &key))?;

    if let Some(prev) = t.replies.get(&slot).await? {
        return Ok(Answer::replay(prev));
    }
    let amended = t.dispatch.amend(&a.order_no, a.tugs, a.at).await?;
    let answer = Answer::json(Status::OK, &amended);
    t.replies.put(&slot, &answer.to_bytes()).await?;
    Ok(answer)
}
