use std::time::Duration;

use idem_scope::scoped;

/// Thin client for the in-house KV service (RESP-like protocol over TCP).
pub struct Kv {
    conn: KvConn,
}

impl Kv {
    pub async fn set_nx(&self, key: &str, val: &str, ttl: Duration) -> Result<bool, KvError> {
        self.conn.command(&["SET", key, val, "NX", "PX", &ttl.as_millis().to_string()]).await.map(|r| r.is_ok())
    }
    pub async fn set(&self, key: &str, val: &str) -> Result<(), KvError> {
        self.conn.command(&["SET", key, val]).await.map(|_| ())
    }
    pub async fn get(&self, key: &str) -> Result<Option<String>, KvError> {
        self.conn.command(&["GET", key]).await.map(|r| r.into_string())
    }
    pub async fn del(&self, key: &str) -> Result<(), KvError> {
        self.conn.command(&["DEL", key]).await.map(|_| ())
    }
}

pub struct CouponApi {
    kv: Kv,
    coupons: CouponBook,
}

pub struct RedeemCall {
    pub headers: Vec<(String, String)>,
    pub tenant_id: String,
    pub user_id: String,
    pub code: String,
}

impl CouponApi {
    pub async fn redeem(&self, call: RedeemCall) -> Result<String, CouponError> {
        let coupon_op = call.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone()).ok_or(CouponError::MissingKey)?;
        let key = scoped(&call.tenant_id, &call.user_id, "coupons.redeem", &coupon_op)?;
        if let Some(done) = self.kv.get(key.storage_key()).await? {
            return Ok(done);
        }
        if !self.kv.set_nx(key.storage_key(), "in_progress", Duration::from_secs(300)).await? {
            return Err(CouponError::InProgress);
        }
        let grant = self.coupons.redeem(&call.tenant_id, &call.code).await?;
        self.kv.set(key.storage_key(), &grant).await?;
        Ok(grant)
    }

    pub async fn redeem_safe(&self, call: RedeemCall) -> Result<String, CouponError> {
        let coupon_op = call.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone()).ok_or(CouponError::MissingKey)?;
        let key = scoped(&call.tenant_id, &call.user_id, "coupons.redeem", &coupon_op)?;
        if !self.kv.set_nx(key.storage_key(), "in_progress", Duration::from_secs(300)).await? {
            return Err(CouponError::InProgress);
        }
        let grant = match self.coupons.redeem(&call.tenant_id, &call.code).await {
            Ok(g) => g,
            Err(e) => {
                self.kv.del(key.storage_key()).await?;
                return Err(e.into());
            }
        };
        self.kv.set(key.storage_key(), &grant).await?;
        Ok(grant)
    }
}
