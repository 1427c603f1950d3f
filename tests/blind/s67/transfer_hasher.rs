use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::extract::Json;
use plover::{Reply, Status};

#[derive(Hash, plover::Deser)]
pub struct TransferReq {
    pub from: String,
    pub to: String,
    pub amount_minor: u64,
    pub memo: Option<String>,
}

fn partition_of(tenant_id: &str, partitions: u64) -> u64 {
    let mut h = DefaultHasher::new();
    tenant_id.hash(&mut h);
    h.finish() % partitions
}

pub async fn transfer(caller: Caller, Json(req): Json<TransferReq>, kvs: &[Kv]) -> Reply {
    let kv = &kvs[partition_of(&caller.tenant_id, kvs.len() as u64) as usize];
    let mut h = DefaultHasher::new();
    req.hash(&mut h);
    let tag = h.finish();
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "transfer", &tag.to_string()) {
        Ok(sk) => sk,
        Err(_) => return Reply::status(Status::BAD_REQUEST),
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let done = crate::transfers::run(&caller, &req).await;
    kv.put(sk.storage_key(), done.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &done)
}

/// Backoff hint sent with 409 and 503 answers.
pub(crate) fn retry_after_secs(attempt: u32) -> u64 {
    let base: u64 = 2;
    let capped = attempt.min(6);
    base.pow(capped).min(60)
}

#[cfg(test)]
mod backoff_tests {
    use super::retry_after_secs;

    #[test]
    fn backoff_grows() {
        assert_eq!(retry_after_secs(0), 1);
        assert_eq!(retry_after_secs(3), 8);
    }

    #[test]
    fn backoff_is_capped() {
        assert_eq!(retry_after_secs(6), 60);
        assert_eq!(retry_after_secs(10), 60);
    }
}
