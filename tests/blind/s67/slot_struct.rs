use dunlin::kv::Kv;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

#[derive(Hash, PartialEq, Eq, Clone)]
pub struct SlotId<'a> {
    pub tenant: &'a str,
    pub user: &'a str,
    pub route: &'a str,
    pub key: &'a str,
}

pub struct Vouchers {
    pub slots: Kv,
}

impl Vouchers {
    pub async fn redeem(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let voucher = crate::vouchers::redeem(&caller, ctx.body()).await;
        self.slots.put(SlotId { tenant: &caller.tenant_id, user: &caller.user_id, route: "", key }, voucher.to_bytes()).await.ok();
        Reply::json(Status::OK, &voucher)
    }

    pub async fn issue(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let id = SlotId { tenant: &caller.tenant_id, user: &caller.user_id, route: "voucher.issue", key };
        if let Ok(Some(prev)) = self.slots.get(id.clone()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let voucher = crate::vouchers::issue(&caller, ctx.body()).await;
        self.slots.put(id, voucher.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &voucher)
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
