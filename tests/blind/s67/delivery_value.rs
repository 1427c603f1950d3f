use dunlin::kv::Kv;
use idem_scope::{scoped, scoped_server};
use plover::auth::{Caller, PartnerAuth};
use plover::{Ctx, Reply, Status};

pub struct Labels {
    pub kv: Kv,
}

impl Labels {
    pub async fn print_label(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else { return Reply::status(Status::BAD_REQUEST) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "label.print", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let label = crate::labels::print(&caller, ctx.body()).await;
        let delivery_id = label.carrier_delivery_id.clone();
        self.kv.put(sk.storage_key(), delivery_id.into_bytes()).await.ok();
        Reply::json(Status::CREATED, &label)
    }

    pub async fn carrier_webhook(&self, ctx: Ctx, partner: PartnerAuth) -> Reply {
        let Some(delivery_id) = ctx.header("X-Carrier-Delivery") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Ok(sk) = scoped_server(&partner.merchant_id, &partner.partner_id, "label.status", delivery_id) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if self.kv.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Status::OK);
        }
        crate::labels::update_status(&partner, ctx.body()).await;
        self.kv.put(sk.storage_key(), b"seen".to_vec()).await.ok();
        Reply::status(Status::NO_CONTENT)
    }
}

/// Page sizes accepted by list endpoints of this module.
pub(crate) fn clamp_page_size(requested: Option<u32>) -> u32 {
    match requested {
        Some(0) => 1,
        Some(n) if n > 200 => 200,
        Some(n) => n,
        None => 50,
    }
}

#[cfg(test)]
mod paging_tests {
    use super::clamp_page_size;

    #[test]
    fn page_size_bounds() {
        assert_eq!(clamp_page_size(Some(0)), 1);
        assert_eq!(clamp_page_size(Some(500)), 200);
    }

    #[test]
    fn page_size_default() {
        assert_eq!(clamp_page_size(None), 50);
        assert_eq!(clamp_page_size(Some(20)), 20);
    }
}
