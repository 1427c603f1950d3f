//! Customs release notifications filed by licensed brokers. A release lifts
//! the customs hold on a container; brokers retry on timeouts.

use ballast::hold::Hold;
use hawser::extract::{Form, FromRequestParts, Parts, Shared};
use hawser::pass::Broker;
use hawser::{Answer, Snag, Status};
use idem_scope::Problem;
use serde::Deserialize;

/// Where a principal keeps its replies.
pub trait ReplySlot {
    fn reply_slot(&self, route: &str, key: &str) -> String;
}

impl ReplySlot for Broker {
    fn reply_slot(&self, route: &str, key: &str) -> String {
        format!("{}|{}|{}|{}", self.account_id, self.user_id, route, key)
    }
}

/// Brokers send the key in `X-Idempotency-Key` (their EDI gateway predates the draft).
pub struct BrokerKey(pub String);

impl<S: Send + Sync> FromRequestParts<S> for BrokerKey {
    type Rejection = Snag;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts
            .headers
            .get("x-idempotency-key")
            .and_then(|v| v.to_str().ok())
            .map(|v| BrokerKey(v.to_owned()))
            .ok_or_else(|| Snag::problem(Problem::missing_key()))
    }
}

#[derive(Deserialize)]
pub struct ReleaseForm {
    pub container_no: String,
    pub entry_no: String,
    pub release_code: String,
}

pub struct ReleaseDesk {
    pub replies: Hold,
    pub holds: customs_bridge::HoldBook,
}

pub async fn file_release(
    desk: Shared<ReleaseDesk>,
    broker: Broker,
    BrokerKey(key): BrokerKey,
    Form(form): Form<ReleaseForm>,
) -> Result<Answer, Snag> {
    let slot = broker.reply_slot("/v1/customs/releases", &key);
    if let Some(prev) = desk.replies.get(&slot).await? {
        return Ok(Answer::replay(prev));
    }

    let entry_slug = format!("{}-{}", form.entry_no, form.release_code);
    let lifted = desk
        .holds
        .lift(&form.container_no, &entry_slug)
        .await
        .map_err(|e| Snag::unprocessable(format!("entry {} rejected: {e}", form.entry_no)))?;

    let answer = Answer::json(Status::OK, &lifted);
    desk.replies.put(&slot, &answer.to_bytes()).await?;
    Ok(answer)
}
