use dunlin::kv::Kv;
use idem_scope::{scoped, Problem};
use plover::auth::MaybeCaller;
use plover::{Ctx, Reply, Status};

pub struct Donations {
    pub kv: Kv,
}

impl Donations {
    pub async fn donate(&self, ctx: Ctx, caller: MaybeCaller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let tenant = caller.tenant_id().map(str::to_owned).unwrap_or_default();
        let Some(user) = caller.user_id() else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let currency = ctx.query("currency").unwrap_or("EUR");
        let Ok(sk) = scoped(&tenant, user, "donation.create", key) else {
            return Reply::problem(Problem::invalid_key("key rejected"));
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let gift = crate::donations::create(&tenant, user, currency, ctx.body()).await;
        self.kv.put(sk.storage_key(), gift.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &gift)
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
