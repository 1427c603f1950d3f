//! Price quotes for crop-protection products. Anyone on the dealer page can
//! request a quote; signed-in growers get their contract pricing.

use bushel::crock::Crock;
use dipstick::{Counter, InputScope, Proxy};
use furrow::glean::Json;
use furrow::warrant::{MaybeGrower, PartnerLink};
use furrow::{Petition, Ruling, Shared};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct QuoteReq {
    pub products: Vec<(String, u32)>,
    pub currency: Option<String>,
}

pub struct Quotes {
    pub crock: Crock,
    pub pricing: PriceBook,
    pub by_kind: Proxy,
}

pub async fn quote(p: Petition, Shared(q): Shared<Quotes>, dealer: PartnerLink, who: MaybeGrower, Json(req): Json<QuoteReq>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let user_id = who.0.as_ref().map_or(String::from("guest"), |g| g.user_id.clone());
    let kind = who.0.as_ref().map_or("guest", |_| "member");
    q.by_kind.counter(kind).count(1);
    let currency = req.currency.as_deref().unwrap_or("USD");

    let key = match scoped(&dealer.org_id, &user_id, "product_quote", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = q.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let quote = q.pricing.quote(&dealer.org_id, who.0.as_ref(), &req.products, currency).await;
    let body = furrow::codec::to_vec(&quote).unwrap_or_default();
    let _ = q.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}
