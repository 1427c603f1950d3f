use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::{Caller, PartnerAuth};
use plover::{Ctx, Reply, Status};

pub struct Fulfilment {
    pub kv: Kv,
}

impl Fulfilment {
    pub async fn ship(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else { return Reply::status(Status::BAD_REQUEST) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "fulfilment.ship", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let s = crate::fulfilment::ship(&caller, ctx.body()).await;
        self.kv.put(sk.storage_key(), s.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &s)
    }

    pub async fn carrier_callback(&self, ctx: Ctx, partner: PartnerAuth) -> Reply {
        let Some(delivery_id) = ctx.header("X-Carrier-Delivery") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&partner.merchant_id, &partner.partner_id, "fulfilment.ship", delivery_id) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if self.kv.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Status::OK);
        }
        crate::fulfilment::record_scan(&partner, ctx.body()).await;
        self.kv.put(sk.storage_key(), b"seen".to_vec()).await.ok();
        Reply::status(Status::NO_CONTENT)
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
