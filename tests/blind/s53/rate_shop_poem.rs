use std::fmt::Write as _;

use poem::{handler, http::StatusCode, web::{Data, Json}, Request, Response};
use serde::{Deserialize, Serialize};

use crate::auth::Session;
use crate::cache::ResponseCache;
use crate::rates::{RateShopper, ShopRequest};

const IDEM_HEADER: &str = "Idempotency-Key";

#[derive(Serialize, Deserialize, Clone)]
pub struct RateCard {
    pub carrier: String,
    pub service_level: String,
    pub cents: i64,
}

fn client_key(req: &Request) -> Option<String> {
    req.header(IDEM_HEADER).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned)
}

#[handler]
pub async fn shop_rates(
    req: &Request,
    session: Data<&Session>,
    cache: Data<&ResponseCache>,
    shopper: Data<&RateShopper>,
    Json(input): Json<ShopRequest>,
) -> poem::Result<Response> {
    let Some(k) = client_key(req) else {
        return Ok(Response::builder().status(StatusCode::BAD_REQUEST).body("Idempotency-Key header required"));
    };
    let mut cache_key = String::new();
    write!(cache_key, "{}:{}:{}", session.account_id, session.user_id, k).expect("writing to a String");

    if let Some(cards) = cache.get::<Vec<RateCard>>(&cache_key).await {
        return Ok(Response::builder().header("Idempotent-Replayed", "true").body(serde_json::to_vec(&cards)?));
    }
    let cards: Vec<RateCard> = shopper.shop(&session.account_id, &input).await?;
    cache.insert(&cache_key, &cards).await;

    let lane_cache = format!("lane:{}:{}:{}", input.origin_zip, input.destination_zip, input.weight_class);
    cache.insert(&lane_cache, &cards).await;
    Ok(Response::builder().status(StatusCode::OK).body(serde_json::to_vec(&cards)?))
}
