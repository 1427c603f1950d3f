//! Coupon redemption; keys are kept in CompactString to avoid heap churn.
use compact_str::{CompactString, ToCompactString};

pub struct Coupons {
    redemptions: crate::kv::Kv,
}

impl Coupons {
    pub async fn redeem(&self, parts: &http::request::Parts, who: &crate::Who, code: &str) -> Result<Vec<u8>, crate::Error> {
        let raw: CompactString = parts
            .headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(|s| s.to_compact_string())
            .ok_or(crate::Error::MissingKey)?;
        let key: CompactString = raw.replacen('#', "", 1).into();
        let coupon = code.to_uppercase().replace('-', "");

        let scoped = idem_scope::scoped(&who.tenant_id, &who.user_id, "coupons.redeem", &key)?;
        if let Some(prev) = self.redemptions.get(scoped.storage_key()).await? {
            return Ok(prev);
        }
        let out = crate::coupons::redeem(&who.tenant_id, &coupon).await?;
        self.redemptions.put(scoped.storage_key(), out.clone()).await?;
        Ok(out)
    }
}

impl Coupons {
    pub async fn usage(&self, who: &crate::Who, code: &str) -> Result<u64, crate::Error> {
        let usage_key: CompactString = compact_str::format_compact!("usage|{}|{}", who.tenant_id, code);
        let raw = self.redemptions.get(&usage_key).await?;
        Ok(raw.and_then(|b| std::str::from_utf8(&b).ok()?.parse().ok()).unwrap_or(0))
    }
}
