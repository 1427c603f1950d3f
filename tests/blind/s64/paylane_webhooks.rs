use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, RawBody};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
struct PaylaneEvent {
    kind: String,
    account_id: String,
    user_id: String,
    charge: String,
}

pub struct Payments {
    pub locker: Locker,
    pub core: crate::core::Core,
    pub signing_secret: Vec<u8>,
}

impl Payments {
    pub async fn capture(&self, caller: Caller, head: Head, body: RawBody) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "capture", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let out = self.core.capture(caller.tenant_id(), body.as_bytes()).await.unwrap_or_default();
        let _ = self.locker.put(sk.storage_key(), &out, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::OK, out)
    }

    pub async fn webhook(&self, head: Head, body: RawBody) -> Reply {
        if !crate::sig::verify(&self.signing_secret, head.header("Paylane-Signature"), body.as_bytes()) {
            return Reply::status(Status::UNAUTHORIZED);
        }
        let Some(delivery) = head.header("X-Paylane-Delivery").map(str::to_owned) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Ok(evt) = serde_json::from_slice::<PaylaneEvent>(body.as_bytes()) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let slot = match evt.kind.as_str() {
            "charge.captured" => {
                let route = "capture";
                format!("{}\0{}\0{}\0{}", evt.account_id, evt.user_id, route, delivery)
            }
            "charge.refunded" => {
                let route = "refund";
                format!("s:{}\0{}\0{}\0{}", evt.account_id, evt.user_id, route, delivery)
            }
            _ => return Reply::status(Status::NO_CONTENT),
        };
        if !self.locker.set_nx(&slot, b"1", Duration::from_secs(7 * 86_400)).await.unwrap_or(false) {
            return Reply::status(Status::OK);
        }
        let _ = self.core.apply_event(&evt.account_id, &evt.kind, &evt.charge).await;
        Reply::status(Status::OK)
    }
}
