use std::time::Duration;

use idem_scope::{scoped, Problem, ScopedKey};
use moraine::auth::Caller;
use moraine::extract::Head;
use moraine::{Reply, Status};
use sextant::locker::Locker;

pub struct ShardedReplays {
    shards: Vec<Locker>,
}

impl ShardedReplays {
    fn shard(&self, key: &ScopedKey) -> &Locker {
        let n = self.shards.len() as u32;
        &self.shards[key.shard(n) as usize]
    }

    fn tenant_bucket(&self, tenant_id: &str) -> usize {
        let h = cityhash_rs::cityhash_110_128(tenant_id.as_bytes()) as u64;
        (h % self.shards.len() as u64) as usize
    }

    pub async fn lookup(&self, caller: &Caller, head: &Head) -> Reply {
        let Some(key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(caller.tenant_id(), caller.user_id(), head.path(), key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        match self.shard(&sk).get(sk.storage_key()).await {
            Ok(Some(b)) => Reply::bytes(Status::OK, b).header("Idempotent-Replayed", "true"),
            Ok(None) => Reply::status(Status::NOT_FOUND),
            Err(_) => Reply::status(Status::SERVICE_UNAVAILABLE),
        }
    }

    pub async fn tenant_stats(&self, caller: &Caller) -> Reply {
        let idx = self.tenant_bucket(caller.tenant_id());
        let stats = self.shards[idx].get(&format!("stats/{}", caller.tenant_id())).await;
        match stats {
            Ok(Some(b)) => Reply::bytes(Status::OK, b),
            _ => Reply::status(Status::NO_CONTENT),
        }
    }

    pub async fn store(&self, key: &ScopedKey, body: &[u8]) -> bool {
        self.shard(key).put(key.storage_key(), body, Duration::from_secs(86_400)).await.is_ok()
    }
}
