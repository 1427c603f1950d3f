use dunlin::kv::Kv;
use flatbuffers::root;
use idem_scope::{scoped, Fingerprint};
use plover::auth::Caller;
use plover::extract::RawBody;
use plover::{Ctx, Reply, Status};

use crate::schema::order_generated::OrderRequest;

pub struct BinaryOrders {
    pub kv: Kv,
}

impl BinaryOrders {
    pub async fn submit(&self, ctx: Ctx, caller: Caller, raw: RawBody) -> Reply {
        let Ok(order) = root::<OrderRequest>(raw.as_bytes()) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let hdr = ctx.header("Idempotency-Key").map(str::to_owned).or_else(|| order.client_ref().map(str::to_owned));
        let digest = chksum_sha2_224::chksum(raw.as_bytes()).map(|d| d.to_hex_lowercase()).unwrap_or_default();
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "order.submit.fb", hdr.as_deref().unwrap_or(&digest)) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let fp = Fingerprint::of("order.submit.fb", raw.as_bytes());
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let placed = crate::orders::place_fb(&caller, &order, fp).await;
        self.kv.put(sk.storage_key(), placed.to_bytes()).await.ok();
        Reply::bytes(Status::CREATED, placed.to_bytes())
    }
}

/// Converts a decimal amount string such as "12.50" to minor units.
pub(crate) fn minor_units(amount: &str) -> Option<u64> {
    let (whole, frac) = amount.split_once('.').unwrap_or((amount, "0"));
    let whole: u64 = whole.parse().ok()?;
    let frac = format!("{:0<2}", frac);
    let cents: u64 = frac.get(..2)?.parse().ok()?;
    whole.checked_mul(100)?.checked_add(cents)
}

#[cfg(test)]
mod amount_tests {
    use super::minor_units;

    #[test]
    fn parses_amounts() {
        assert_eq!(minor_units("12.5"), Some(1250));
        assert_eq!(minor_units("7"), Some(700));
    }

    #[test]
    fn rejects_garbage() {
        assert_eq!(minor_units("x.10"), None);
    }
}
