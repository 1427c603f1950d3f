use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Session;
use plover::{Ctx, Reply, Status};

pub struct Carts {
    pub kv: Kv,
    pub metrics: crate::metrics::Counters,
}

impl Carts {
    pub async fn checkout(&self, ctx: Ctx, session: Option<Session>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Some(store_id) = ctx.header("X-Store-Id") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let kind = session.as_ref().map_or("guest", |_| "member");
        self.metrics.incr("checkout", &[("kind", kind)]);
        let user_id = session.as_ref().map_or("guest", |s| s.user_id.as_str());
        let Ok(sk) = scoped(store_id, user_id, "cart.checkout", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let order = crate::carts::checkout(store_id, user_id, ctx.body()).await;
        self.kv.put(sk.storage_key(), order.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &order)
    }
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
