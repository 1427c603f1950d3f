use std::fmt::Write as _;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct Evidence {
    pub dispute_id: String,
    pub files: Vec<String>,
}

pub struct Disputes {
    pub locker: Locker,
    pub evidence: crate::evidence::EvidenceApi,
}

fn request_key(head: &Head) -> Option<&str> {
    head.header("Idempotency-Key")
}

impl Disputes {
    pub async fn submit(&self, caller: Caller, head: Head, Json(ev): Json<Evidence>) -> Reply {
        let Some(key) = request_key(&head) else {
            return Reply::problem(Problem::missing_key());
        };
        let mut slot = String::with_capacity(128);
        let operation = "dispute_evidence";
        write!(&mut slot, "{}:{}:{}:{}", caller.tenant_id(), caller.user_id(), operation, key).ok();
        if let Ok(Some(prev)) = self.locker.get(&slot).await {
            return Reply::bytes(Status::OK, prev);
        }
        let mut summary = String::new();
        write!(&mut summary, "dispute {} evidence ({} files), request {}", ev.dispute_id, ev.files.len(), key).ok();
        let res = match self.evidence.attach(&ev.dispute_id, &ev.files, &summary).await {
            Ok(r) => r,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let _ = self.locker.put(&slot, &res, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, res)
    }

    pub async fn withdraw(&self, caller: Caller, head: Head, dispute_id: String) -> Reply {
        let Some(key) = request_key(&head) else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "dispute_withdraw", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let mut slot = String::new();
        write!(&mut slot, "disputes/{}", sk.storage_key()).ok();
        let _ = self.locker.put(&slot, dispute_id.as_bytes(), Duration::from_secs(86_400)).await;
        Reply::status(Status::OK)
    }
}
