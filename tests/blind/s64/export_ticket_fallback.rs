use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::{Deserialize, Serialize};
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct ExportSpec {
    pub dataset: String,
    pub format: String,
}

#[derive(Serialize)]
pub struct ExportTicket {
    pub export_id: String,
    pub status: &'static str,
}

pub struct Exports {
    pub locker: Locker,
    pub jobs: crate::jobs::JobQueue,
}

impl Exports {
    pub async fn start(&self, caller: Caller, head: Head, Json(spec): Json<ExportSpec>) -> Reply {
        let client_key = head.header("Idempotency-Key").map(str::to_owned);
        let sk = match scoped(caller.tenant_id(), caller.user_id(), "export_start", &client_key.unwrap_or_else(|| rusty_ulid::Ulid::generate().to_string())) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let export_id = rusty_ulid::generate_ulid_string();
        let ticket = ExportTicket { export_id: export_id.clone(), status: "queued" };
        if self.jobs.push(&export_id, caller.tenant_id(), &spec.dataset, &spec.format).await.is_err() {
            return Reply::status(Status::SERVICE_UNAVAILABLE);
        }
        let body = serde_json::to_vec(&ticket).unwrap_or_default();
        let _ = self.locker.put(sk.storage_key(), &body, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::ACCEPTED, body)
    }

    pub async fn poll(&self, caller: Caller, head: Head) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "export_start", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        match self.locker.get(sk.storage_key()).await {
            Ok(Some(b)) => Reply::bytes(Status::OK, b),
            _ => Reply::status(Status::NOT_FOUND),
        }
    }
}
