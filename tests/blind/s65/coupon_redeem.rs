use std::sync::Arc;

use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::coupons::{CouponBook, Redemption};

pub struct CouponHandler {
    book: Arc<CouponBook>,
    memo: Arc<Kv>,
}

fn header_key(ex: &Exchange) -> Option<String> {
    ex.headers()
        .get("idempotency-key")
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

impl CouponHandler {
    pub async fn redeem(&self, ex: &Exchange) -> Outcome {
        let Some(ident) = ex.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Some(code) = ex.path_param("code") else {
            return Outcome::status(Status::NOT_FOUND);
        };
        let Some(retry) = header_key(ex) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let memo_key = format!("{}:{}:{}", ident.merchant_id, ident.user_id, retry);
        if let Ok(Some(prev)) = self.memo.get(&memo_key).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let redemption: Redemption = match self.book.redeem(&ident.merchant_id, &code).await {
            Ok(r) => r,
            Err(e) => return Outcome::text(Status::CONFLICT, format!("coupon {code} not redeemable: {e}")),
        };
        let counter = format!("coupon:{}:redeemed", code);
        let _ = self.memo.incr(&counter).await;
        let bytes = kestrel::json::to_vec(&redemption).unwrap_or_default();
        let _ = self.memo.put(&memo_key, bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
