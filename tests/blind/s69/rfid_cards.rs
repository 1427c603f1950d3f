//! Ordering RFID charge cards. The grid store keys on its leading
//! arguments; the last argument is the stored value.

use garner::grid::Grid;
use trellis::guard::Identity;
use trellis::pull::Json;
use trellis::{Code, Cx, Reply};

#[derive(serde::Deserialize)]
pub struct CardOrder {
    pub quantity: u16,
    pub ship_to: String,
}

pub async fn order_cards(cx: Cx, who: Identity, Json(order): Json<CardOrder>, grid: &Grid) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = grid.get(&who.org_id, &who.user_id, "/v1/cards/orders", key).await {
        return Reply::bytes(Code::OK, prev);
    }
    let shipment = crate::cards::order(&who, order.quantity, &order.ship_to).await;
    let _ = grid.put(&who.org_id, &who.user_id, "/v1/cards/orders", key, shipment.as_bytes()).await;
    Reply::text(Code::CREATED, shipment)
}

pub async fn block_card(cx: Cx, who: Identity, grid: &Grid) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let card = cx.param("card_id").unwrap_or_default();
    if let Ok(Some(prev)) = grid.get2(&who.org_id, key).await {
        return Reply::bytes(Code::OK, prev);
    }
    crate::cards::block(&who, &card).await;
    let _ = grid.put2(&who.org_id, key, card.as_bytes()).await;
    Reply::status(Code::NO_CONTENT)
}
