use std::time::Duration;

use bitcoin_hashes::{sha256d, Hash};
use idem_scope::{scoped, Fingerprint, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, RawBody};
use moraine::{Reply, Status};
use serde::{Deserialize, Serialize};
use sextant::locker::Locker;

#[derive(Deserialize, Serialize)]
pub struct TransferRequest {
    pub from: String,
    pub to: String,
    pub amount_minor: i64,
    pub reference: Option<String>,
}

pub trait DedupTag {
    fn dedup_tag(&self) -> String;
}

impl DedupTag for TransferRequest {
    fn dedup_tag(&self) -> String {
        let bytes = serde_json::to_vec(self).unwrap_or_default();
        ascii85::encode(sha256d::Hash::hash(&bytes).as_byte_array())
    }
}

pub struct Transfers {
    pub locker: Locker,
    pub rails: crate::rails::Rails,
}

impl Transfers {
    pub async fn create(&self, caller: Caller, head: Head, body: RawBody) -> Reply {
        if head.header("Idempotency-Key").is_none() {
            return Reply::problem(Problem::missing_key());
        }
        let Ok(req) = serde_json::from_slice::<TransferRequest>(body.as_bytes()) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let fp = Fingerprint::of("transfer", body.as_bytes());
        let sk = match scoped(caller.tenant_id(), caller.user_id(), "transfer", &req.dedup_tag()) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let done = match self.rails.transfer(&req.from, &req.to, req.amount_minor).await {
            Ok(d) => d,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let record = serde_json::to_vec(&(fp.as_bytes().to_vec(), &done)).unwrap_or_default();
        let _ = self.locker.put(sk.storage_key(), &record, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, done)
    }
}
