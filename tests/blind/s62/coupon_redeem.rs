use std::sync::Arc;
use std::time::Duration;

use idem_scope::scoped;
use quarry::kv::Vault;
use rslock::LockManager;
use wicket::auth::Caller;
use wicket::{Ctx, Reply, Status};

const CLAIM_TTL: Duration = Duration::from_secs(60);

#[derive(Debug, thiserror::Error)]
pub enum CouponError {
    #[error("missing idempotency key")]
    MissingKey,
    #[error("coupon expired")]
    Expired,
    #[error("request already in flight")]
    InFlight,
    #[error(transparent)]
    Store(#[from] quarry::Error),
    #[error(transparent)]
    Scope(#[from] idem_scope::ScopeError),
}

pub struct Coupons {
    kv: Arc<Vault>,
    locks: LockManager,
    catalog: promo::Catalog,
}

impl Coupons {
    pub async fn redeem(&self, ctx: &Ctx, caller: &Caller, code: &str) -> Result<Reply, CouponError> {
        let key = ctx.header("Idempotency-Key").ok_or(CouponError::MissingKey)?;
        let sk = scoped(&caller.merchant_id, &caller.user_id, "coupons.redeem", key)?;
        if !self.kv.set_nx(sk.storage_key(), b"in_progress".to_vec(), CLAIM_TTL).await? {
            return Err(CouponError::InFlight);
        }
        tracing::debug!("{}", format!("coupon {} redeemed under key {}", code, key));
        let coupon = self.catalog.find(&caller.merchant_id, code).await;
        if coupon.is_expired() {
            return Err(CouponError::Expired);
        }
        let redemption = self.catalog.redeem(&coupon, &caller.user_id).await;
        self.kv.set(sk.storage_key(), redemption.to_bytes()).await?;
        Ok(Reply::bytes(Status::OK, redemption.to_bytes()))
    }

    pub async fn expire_sweep(&self) -> anyhow::Result<usize> {
        let lock = match self.locks.lock(b"coupons:expire-sweep", Duration::from_secs(30)).await {
            Ok(lock) => lock,
            Err(_) => return Ok(0),
        };
        let expired = self.catalog.expired_batch(500).await?;
        for coupon in &expired {
            self.catalog.archive(coupon).await?;
        }
        self.locks.unlock(&lock).await;
        Ok(expired.len())
    }
}
