use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, RawBody};
use moraine::{Reply, Status};
use serde::{Deserialize, Serialize};
use sextant::locker::Locker;

#[derive(Deserialize)]
struct RefundSettled {
    event_id: String,
    merchant_id: Option<String>,
    user_id: String,
    refund_id: String,
}

#[derive(Serialize)]
struct Stored<'a> {
    refund_id: &'a str,
    source_event: &'a str,
}

pub struct Refunds {
    pub locker: Locker,
}

impl Refunds {
    pub async fn refund_http(&self, caller: Caller, head: Head, body: RawBody) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "refund", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let _ = self.locker.put(sk.storage_key(), body.as_bytes(), Duration::from_secs(86_400)).await;
        Reply::status(Status::ACCEPTED)
    }

    pub async fn on_settled(&self, raw: &[u8]) -> eyre::Result<()> {
        let evt: RefundSettled = serde_json::from_slice(raw)?;
        let merchant_label = evt.merchant_id.as_deref().unwrap_or("unknown");
        metrics::counter!("refund.settled", "merchant" => merchant_label.to_owned()).increment(1);
        let Some(merchant_id) = evt.merchant_id.as_deref() else {
            eyre::bail!("settlement without merchant");
        };
        let route = "refund";
        let slot = format!("s:{}:{}:{}:{}", merchant_id, evt.user_id, route, evt.event_id);
        let stored = Stored { refund_id: &evt.refund_id, source_event: &evt.event_id };
        let value = serde_json::to_vec(&stored)?;
        self.locker.put(&slot, &value, Duration::from_secs(86_400)).await?;
        Ok(())
    }
}
