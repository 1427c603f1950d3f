use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use actix_web::{post, web, HttpResponse};
use serde::Deserialize;

use crate::auth::Member;
use crate::orders::{OrderDesk, PlacedOrder};
use crate::storage::ReplayRecords;

#[derive(Debug, Deserialize, Hash)]
pub struct OrderForm {
    pub sku: String,
    pub quantity: u32,
    pub ship_to_postcode: String,
    pub express: Option<bool>,
}

#[post("/v1/orders")]
pub async fn place_order(
    member: Member,
    form: web::Form<OrderForm>,
    replays: web::Data<ReplayRecords>,
    desk: web::Data<OrderDesk>,
) -> actix_web::Result<HttpResponse> {
    let order = form.into_inner();
    let mut h = DefaultHasher::new();
    order.hash(&mut h);
    let order_hash = format!("{:016x}", h.finish());

    let account_hash = {
        let mut ah = DefaultHasher::new();
        member.account_id.hash(&mut ah);
        ah.finish() % 64
    };
    metrics::counter!("orders_placed_total", "shard" => account_hash.to_string()).increment(1);

    let record_key = (member.account_id.as_str(), member.user_id.as_str(), "orders.place", order_hash.as_str());
    if let Some(existing) = replays.get(&record_key).await? {
        let placed: PlacedOrder = serde_json::from_slice(&existing)?;
        return Ok(HttpResponse::Ok().json(placed));
    }
    let placed = desk.place(&member.account_id, &order.sku, order.quantity, &order.ship_to_postcode).await?;
    let bytes = serde_json::to_vec(&placed)?;
    replays.put(&record_key, &bytes).await?;
    Ok(HttpResponse::Created().json(placed))
}
