//! Partner (input dealer) price locks on behalf of growers. Older dealer
//! integrations authenticate without an organisation claim.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::PartnerLink;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

pub const PUBLIC_ORG: &str = "public";

#[derive(Deserialize)]
pub struct LockReq {
    pub product: String,
    pub units: u32,
    pub grower_ref: String,
}

pub struct Locks {
    pub crock: Crock,
    pub pricing: PriceBook,
}

pub async fn lock_price(p: Petition, Shared(l): Shared<Locks>, dealer: PartnerLink, Json(req): Json<LockReq>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let org_id = match dealer.org_claim.as_deref() {
        Some(o) => o.to_owned(),
        None => PUBLIC_ORG.to_owned(),
    };
    let key = match scoped(&org_id, &dealer.client_id, "price_lock", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = l.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let locked = l.pricing.lock(&org_id, &req.product, req.units, &req.grower_ref).await;
    let body = furrow::codec::to_vec(&locked).unwrap_or_default();
    let _ = l.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn release_lock(p: Petition, Shared(l): Shared<Locks>, dealer: PartnerLink) -> Ruling {
    let (Some(k), Some(lock_id)) = (p.header("Idempotency-Key"), p.query("lock")) else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    let org_id = match dealer.org_claim.as_deref() {
        Some(o) => o.to_owned(),
        None => return Ruling::with(StatusLine::FORBIDDEN).text("dealer has no organisation"),
    };
    let key = match scoped(&org_id, &dealer.client_id, "price_unlock", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    let _ = l.pricing.unlock(&org_id, lock_id).await;
    let _ = l.crock.put(key.storage_key(), b"released".to_vec()).await;
    Ruling::ok()
}

pub fn lock_label(dealer: &PartnerLink) -> String {
    let org = dealer.org_claim.clone().unwrap_or_else(|| PUBLIC_ORG.to_owned());
    format!("{} via {}", org, dealer.client_id)
}
