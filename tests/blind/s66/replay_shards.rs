use std::sync::Arc;

use cadence::{Counted, StatsdClient};
use flate2::Crc;
use idem_scope::{scoped, Problem, ScopedKey};
use lintel::mw::{Chain, Wrap};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

/// Replay middleware whose stash is split over several shards.
pub struct ShardedReplay {
    shards: Vec<Arc<Stash>>,
    metrics: Arc<StatsdClient>,
}

impl ShardedReplay {
    fn shard_for(&self, slot: &ScopedKey) -> (usize, &Stash) {
        let mut crc = Crc::new();
        crc.update(slot.storage_key().as_bytes());
        let n = (crc.sum() as usize) % self.shards.len();
        (n, &self.shards[n])
    }
}

impl Wrap for ShardedReplay {
    async fn wrap(&self, call: Call, next: Chain<'_>) -> Answer {
        let Some(key) = call.header("Idempotency-Key").map(str::to_owned) else {
            return next.run(call).await;
        };
        let Some(who) = call.identity().cloned() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let route = call.route_name().to_owned();
        let slot = match scoped(&who.tenant_id, &who.user_id, &route, &key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        let (n, stash) = self.shard_for(&slot);
        let metric = format!("replay.shard_{n}.hit");
        if let Ok(Some(saved)) = stash.get(slot.storage_key()).await {
            let _ = self.metrics.count(&metric, 1);
            return Answer::from_snapshot(&saved);
        }
        let answer = next.run(call).await;
        if answer.code().is_success() {
            let _ = stash.put(slot.storage_key(), &answer.snapshot()).await;
        }
        answer
    }
}
