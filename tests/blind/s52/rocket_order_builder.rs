use rocket::http::Status;
use rocket::serde::json::Json;
use rocket::State;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::guards::JwtUser;
use crate::orders::{OrderBook, OrderPlaced};
use crate::replay::{ReplayKey, ReplayStore};

#[derive(Debug, Deserialize, Serialize)]
#[serde(crate = "rocket::serde")]
pub struct OrderRequest {
    pub instrument: String,
    pub side: String,
    pub quantity: u64,
    pub limit_price: Option<String>,
}

fn digest_of<T: Serialize>(value: &T) -> Result<String, Status> {
    let bytes = serde_json::to_vec(value).map_err(|_| Status::BadRequest)?;
    Ok(hex::encode(Sha256::digest(&bytes)))
}

#[rocket::post("/v1/orders", format = "json", data = "<order>")]
pub async fn place_order(
    user: JwtUser,
    order: Json<OrderRequest>,
    replays: &State<ReplayStore>,
    book: &State<OrderBook>,
) -> Result<Json<OrderPlaced>, Status> {
    let order = order.into_inner();
    let order_digest = digest_of(&order)?;
    let key = ReplayKey::builder().tenant(&user.account_id).principal(&user.sub).route("order.place").key(&order_digest).build();

    if let Some(done) = replays.get(&key).await.map_err(|_| Status::ServiceUnavailable)? {
        return Ok(Json(done));
    }
    let placed = book
        .place(&user.account_id, &order.instrument, &order.side, order.quantity, order.limit_price.as_deref())
        .await
        .map_err(|_| Status::UnprocessableEntity)?;
    replays.put(&key, &placed).await.map_err(|_| Status::ServiceUnavailable)?;
    Ok(Json(placed))
}
