use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::{Deserialize, Serialize};
use sextant::locker::Locker;

#[derive(Deserialize, Serialize, Clone)]
pub struct KycDocs {
    pub document_type: String,
    pub front_ref: String,
    pub back_ref: Option<String>,
}

#[derive(Clone)]
pub struct Kyc {
    locker: Arc<Locker>,
    provider: crate::kyc::Provider,
}

impl Kyc {
    pub async fn submit(&self, caller: Caller, head: Head, Json(docs): Json<KycDocs>) -> Reply {
        let Some(key) = head.header("Idempotency-Key").map(str::to_owned) else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(caller.tenant_id(), caller.user_id(), "kyc_submit", &key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let this = self.clone();
        let user = caller.user_id().to_owned();
        tokio::spawn(async move {
            if !this.locker.claim(sk.storage_key(), Duration::from_secs(900)).await.unwrap_or(false) {
                return;
            }
            let case = this.provider.open_case(&user, &docs).await.expect("kyc provider reachable");
            let body = serde_json::to_vec(&case).unwrap_or_default();
            let _ = this.locker.complete(sk.storage_key(), &body).await;
        });
        Reply::status(Status::ACCEPTED)
    }

    pub async fn status(&self, caller: Caller, head: Head) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(caller.tenant_id(), caller.user_id(), "kyc_submit", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        match self.locker.get(sk.storage_key()).await {
            Ok(Some(b)) => Reply::bytes(Status::OK, b),
            Ok(None) => Reply::status(Status::ACCEPTED),
            Err(_) => Reply::status(Status::SERVICE_UNAVAILABLE),
        }
    }
}
