use std::time::Duration;

use idem_scope::{scoped, Problem};
use larder::pantry::Pantry;
use serde::Serialize;
use tamarind::auth::Principal;
use tamarind::{Reply, Req};

#[derive(Serialize)]
struct CouponGrant {
    coupon: String,
    discount_pct: u8,
}

pub struct Coupons {
    grants: Pantry,
}

impl Coupons {
    /// POST /t/{tenant}/coupons/{code}/claim
    pub async fn claim_coupon(&self, req: Req) -> Result<Reply, Reply> {
        let tenant_id = req.param("tenant").ok_or_else(|| Reply::status(404))?.to_owned();
        let code = req.param("code").ok_or_else(|| Reply::status(404))?.to_owned();
        let client_key = req
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;

        // landing pages let visitors claim before they sign up
        let principal_id = match req.ext::<Principal>() {
            Some(Principal::User(user_id)) => user_id.clone(),
            Some(Principal::ApiKey(key_id)) => key_id.replace('\0', ""),
            None | Some(Principal::Anonymous) => "anonymous".to_owned(),
        };

        let key = scoped(&tenant_id, &principal_id, "coupons.claim", client_key)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        if let Some(prev) = self.grants.get(key.storage_key()).await.map_err(Reply::internal)? {
            return Ok(Reply::raw(200, prev));
        }

        let grant = CouponGrant { coupon: code, discount_pct: 15 };
        let bytes = serde_json::to_vec(&grant).map_err(Reply::internal)?;
        self.grants
            .put(key.storage_key(), &bytes, Duration::from_secs(30 * 86_400))
            .await
            .map_err(Reply::internal)?;
        Ok(Reply::raw(201, bytes))
    }
}
