//! Storage-lane keys for the grain-sale endpoint. Keys are SCALE-encoded
//! (parity-scale-codec) because the lane store is shared with the Substrate
//! based traceability node and speaks the same encoding.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared};
use idem_scope::Problem;
use parity_scale_codec::Encode;
use serde::Deserialize;

#[derive(Deserialize, Encode)]
pub struct SaleReq {
    pub lot: String,
    pub bushels: u32,
    pub price_cents: u32,
}

pub struct Lanes {
    pub crock: Crock,
    pub sales: SalesDesk,
}

pub async fn sell_spot(p: Petition, Shared(lanes): Shared<Lanes>, g: Grower, Json(req): Json<SaleReq>) -> Ruling {
    let Some(key) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let lane_key = (g.org_id.as_str(), key).encode();
    if let Ok(Some(prev)) = lanes.crock.get(&lane_key).await {
        return Ruling::ok().bytes(prev);
    }
    let trace_rec = (g.org_id.as_str(), g.user_id.as_str(), "spot_sale", req.lot.as_str()).encode();
    let ticket = lanes.sales.sell(&g.org_id, &req.lot, req.bushels, req.price_cents, &trace_rec).await;
    let body = furrow::codec::to_vec(&ticket).unwrap_or_default();
    let _ = lanes.crock.put(&lane_key, body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn sell_deferred(p: Petition, Shared(lanes): Shared<Lanes>, g: Grower, Json(req): Json<SaleReq>) -> Ruling {
    let Some(key) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let lane_key = (g.org_id.as_str(), g.user_id.as_str(), "deferred_sale", key).encode();
    if let Ok(Some(prev)) = lanes.crock.get(&lane_key).await {
        return Ruling::ok().bytes(prev);
    }
    let ticket = lanes.sales.defer(&g.org_id, &req.lot, req.bushels).await;
    let body = furrow::codec::to_vec(&ticket).unwrap_or_default();
    let _ = lanes.crock.put(&lane_key, body.clone()).await;
    Ruling::created().bytes(body)
}
