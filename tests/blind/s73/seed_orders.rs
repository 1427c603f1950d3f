//! Seed orders. Single orders carry an Idempotency-Key; the "repeat last
//! season" endpoint was added later and dedups on the order contents.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared};
use idem_scope::{scoped, Problem};
use marsupial::{Hasher, KT128};
use serde::{Deserialize, Serialize};

pub trait ContentTag {
    fn tag_bytes(&self) -> Vec<u8>;

    fn tag(&self) -> String {
        let mut hasher = Hasher::<KT128>::new();
        hasher.update(&self.tag_bytes());
        hasher.finalize().to_hex().to_string()
    }
}

#[derive(Deserialize, Serialize)]
pub struct SeedOrder {
    pub hybrid: String,
    pub units: u32,
    pub treatment: Option<String>,
    pub ship_to: String,
}

impl ContentTag for SeedOrder {
    fn tag_bytes(&self) -> Vec<u8> {
        furrow::codec::to_vec(self).unwrap_or_default()
    }
}

#[derive(Serialize)]
pub struct CatalogPage {
    pub season: u16,
    pub hybrids: Vec<String>,
}

impl ContentTag for CatalogPage {
    fn tag_bytes(&self) -> Vec<u8> {
        furrow::codec::to_vec(self).unwrap_or_default()
    }
}

pub struct SeedDesk {
    pub crock: Crock,
    pub supplier: SupplierClient,
}

pub async fn repeat_last_season(Shared(desk): Shared<SeedDesk>, g: Grower, Json(order): Json<SeedOrder>) -> Ruling {
    let route = "seed_reorder";
    let slot = format!("{}:{}:{}:{}", g.org_id, g.user_id, route, order.tag());
    if let Ok(Some(prev)) = desk.crock.get(&slot).await {
        return Ruling::ok().bytes(prev);
    }
    let placed = desk.supplier.place(&g.org_id, &order).await;
    let body = furrow::codec::to_vec(&placed).unwrap_or_default();
    let _ = desk.crock.put(&slot, body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn order_seed(p: Petition, Shared(desk): Shared<SeedDesk>, g: Grower, Json(order): Json<SeedOrder>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let Ok(key) = scoped(&g.org_id, &g.user_id, "seed_order", k) else {
        return Ruling::problem(Problem::invalid_key("separator or length"));
    };
    if let Ok(Some(prev)) = desk.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let placed = desk.supplier.place(&g.org_id, &order).await;
    let body = furrow::codec::to_vec(&placed).unwrap_or_default();
    let _ = desk.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn catalog(Shared(desk): Shared<SeedDesk>, season: u16) -> Ruling {
    let page = CatalogPage { season, hybrids: desk.supplier.hybrids(season).await };
    let etag = page.tag();
    Ruling::ok().header("ETag", &etag).json(&page)
}
