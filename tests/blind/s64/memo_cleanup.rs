use std::time::Duration;

use idem_scope::{scoped, IdempotencyKey, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct Payment {
    pub amount_minor: i64,
    pub memo: String,
    pub reference: String,
}

pub struct Memos {
    pub locker: Locker,
    pub psp: crate::psp::PspClient,
}

impl Memos {
    pub async fn pay(&self, caller: Caller, head: Head, Json(p): Json<Payment>) -> Reply {
        let Some(raw) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let key = match IdempotencyKey::parse_lenient(raw.trim_matches('"').as_bytes()) {
            Ok(k) => k,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let mut memo = p.memo.clone();
        memo.retain(|c| !c.is_control());
        let reference = p.reference.replace('-', "");

        let sk = match scoped(caller.tenant_id(), caller.user_id(), "memo_pay", key.as_str()) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let receipt = match self.psp.pay(caller.tenant_id(), p.amount_minor, &memo, &reference).await {
            Ok(r) => r,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let _ = self.locker.put(sk.storage_key(), &receipt, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, receipt)
    }
}
