use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub struct Shipments {
    pub kv: Kv,
    pub rates: crate::rates::Table,
}

impl Shipments {
    pub async fn book(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "shipment.book", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if !self.kv.claim(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Status::CONFLICT);
        }
        let price_for = |zone: &str| self.rates.lookup(zone).expect("rate table covers every zone");
        let parcel = crate::parcels::decode(ctx.body());
        let price = price_for(&parcel.zone);
        let label = crate::carrier::book(&caller, &parcel, price).await;
        self.kv.complete(sk.storage_key(), label.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &label)
    }

    pub async fn quote(&self, ctx: Ctx, caller: Caller) -> Reply {
        let parcel = crate::parcels::decode(ctx.body());
        let price = self.rates.lookup(&parcel.zone).expect("rate table covers every zone");
        let _ = caller;
        Reply::json(Status::OK, &price)
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
