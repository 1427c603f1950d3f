//! Extractor for the client key on the lift-pass API; some older POS
//! terminals pad the header with NUL bytes.

use cornice::drift::Drift;
use telemark::extract::{FromRequestParts, Parts};
use telemark::pass::Skier;
use telemark::{Carve, Wipeout};

pub struct PosKey(pub String);

impl<S: Sync> FromRequestParts<S> for PosKey {
    type Rejection = Wipeout;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Wipeout> {
        let v = parts
            .headers
            .get("Idempotency-Key")
            .and_then(|h| h.to_str().ok())
            .ok_or_else(|| Wipeout::bad_request("Idempotency-Key required"))?;
        Ok(PosKey(v.trim_matches(|c| c == '\0').to_owned()))
    }
}

pub async fn pos_sale(skier: Skier, key: PosKey, drift: &Drift) -> Result<Carve, Wipeout> {
    let trimmed = key.0.trim();
    if trimmed.len() != key.0.len() {
        return Err(Wipeout::bad_request("whitespace in key"));
    }
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "pos.sale", trimmed)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let sale = crate::pos::sell(&skier).await?;
    drift.put(sk.storage_key(), &sale.to_json()).await?;
    Ok(Carve::created(sale.to_json()))
}
