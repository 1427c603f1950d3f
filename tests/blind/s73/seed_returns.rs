//! Seed returns after planting (unopened bags). Return routes are versioned
//! per dealer program, e.g. `/v2/returns/seed/{program}`.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct SeedReturn {
    pub sku: String,
    pub bags: u16,
    pub lot: String,
}

pub struct Returns {
    pub crock: Crock,
    pub supplier: SupplierClient,
}

pub async fn return_seed(p: Petition, Shared(r): Shared<Returns>, g: Grower, Json(ret): Json<SeedReturn>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let route = p.matched_path().replacen('/', ".", 8);
    let key = match scoped(&g.org_id, &g.user_id, &route, k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = r.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let sku = ret.sku.replacen("-", "", 1);
    let credit = match r.supplier.return_bags(&sku, ret.bags, &ret.lot).await {
        Ok(c) => c,
        Err(e) => return Ruling::with(StatusLine::UNPROCESSABLE).text(&e.to_string()),
    };
    let body = furrow::codec::to_vec(&credit).unwrap_or_default();
    let _ = r.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn return_status(p: Petition, Shared(r): Shared<Returns>, g: Grower) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let key = match scoped(&g.org_id, &g.user_id, p.route_name(), k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    match r.crock.get(key.storage_key()).await {
        Ok(Some(b)) => Ruling::ok().bytes(b),
        _ => Ruling::with(StatusLine::NOT_FOUND),
    }
}
