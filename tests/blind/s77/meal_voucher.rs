//! Mountain-restaurant meal vouchers for season-pass holders.

use cornice::drift::Drift;
use telemark::extract::{FromRequestParts, Parts};
use telemark::pass::Skier;
use telemark::{Carve, Json, Wipeout};

pub struct VoucherKey(pub String);

impl<S: Send + Sync> FromRequestParts<S> for VoucherKey {
    type Rejection = Wipeout;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Wipeout> {
        parts
            .headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(|v| VoucherKey(v.to_owned()))
            .ok_or_else(|| Wipeout::bad_request("Idempotency-Key required"))
    }
}

pub async fn redeem(
    skier: Skier,
    vk: VoucherKey,
    Json(req): Json<crate::dining::Redeem>,
    drift: &Drift,
) -> Result<Carve, Wipeout> {
    tracing::debug!(voucher_key = %vk.0, "redeem");
    if let Some(prev) = drift.get(&vk.0).await? {
        return Ok(Carve::replayed(prev));
    }
    let receipt = crate::dining::redeem(&skier, &req).await?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "dining.voucher-redeem", &vk.0)?;
    drift.put(sk.storage_key(), &receipt.to_json()).await?;
    Ok(Carve::ok(receipt))
}
