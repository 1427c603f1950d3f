use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, RawBody};
use moraine::{Reply, Status};
use sextant::locker::Locker;

const PARTITIONS: u64 = 32;

pub struct Shipping {
    pub partitions: Vec<Locker>,
    pub carrier: crate::carrier::CarrierApi,
}

impl Shipping {
    fn partition_for(&self, storage_key: &str) -> &Locker {
        let h = cityhash_rs::cityhash_110_128(storage_key.as_bytes());
        &self.partitions[(h as u64 % PARTITIONS) as usize]
    }

    pub async fn book_label(&self, caller: Caller, head: Head, body: Option<RawBody>) -> Reply {
        if head.header("Idempotency-Key").is_none() {
            return Reply::problem(Problem::missing_key());
        }
        let tag = body
            .as_ref()
            .map(|b| cityhash_rs::cityhash_110_128(b.as_bytes()))
            .map(|h| format!("{h:032x}"))
            .unwrap_or_else(|| "empty".to_owned());
        let sk = match scoped(caller.tenant_id(), caller.user_id(), "book_label", &tag) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let part = self.partition_for(sk.storage_key());
        if let Ok(Some(prev)) = part.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let label = match self.carrier.book(caller.tenant_id(), body.as_ref().map(|b| b.as_bytes())).await {
            Ok(l) => l,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let _ = part.put(sk.storage_key(), &label, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::CREATED, label)
    }
}
