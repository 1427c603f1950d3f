//! Seat upgrades offered in the app after purchase (stalls to dress circle,
//! add a box). The OpenAPI document is generated with utoipa.
use std::time::Duration;

use loft::batten::Batten;
use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Flub, House};
use serde::Deserialize;
use utoipa::ToSchema;

const KEEP: Duration = Duration::from_secs(24 * 3600);

#[derive(Deserialize, ToSchema)]
pub struct UpgradeRequest {
    pub order_id: String,
    pub target_band: String,
    #[schema(description = "Client idempotency key; a retry of the same upgrade must reuse it")]
    pub request_token: Option<String>,
}

pub struct Upgrades {
    pub batten: Batten,
    pub seating: crate::seating::Upgrader,
}

#[utoipa::path(post, path = "/v1/upgrades", request_body = UpgradeRequest, responses((status = 201, description = "upgrade booked")))]
pub async fn sell_upgrade(patron: Patron, JsonPart(req): JsonPart<UpgradeRequest>, house: House<Upgrades>) -> Result<Curtain, Flub> {
    let slot = req
        .request_token
        .as_deref()
        .map(|k| format!("{}:{}:{}:{}", patron.org_id, patron.user_id, "sell_upgrade", k))
        .ok_or_else(|| Flub::bad_request("request_token is required"))?;
    if let Some(previous) = house.batten.get(&slot).await? {
        return Ok(Curtain::replay(Some(previous)));
    }
    let upgraded = house.seating.upgrade(&patron.org_id, &req.order_id, &req.target_band).await?;
    let body = serde_json::to_vec(&upgraded).map_err(Flub::internal)?;
    house.batten.put(&slot, body.clone(), KEEP).await?;
    Ok(Curtain::bytes(201, body))
}

/// Price check for the upgrade screen; nothing is stored.
pub async fn quote_upgrade(patron: Patron, JsonPart(req): JsonPart<UpgradeRequest>, house: House<Upgrades>) -> Result<Curtain, Flub> {
    let quote = house.seating.quote(&patron.org_id, &req.order_id, &req.target_band).await?;
    let label = req
        .request_token
        .as_deref()
        .map(|k| format!("quote for upgrade request {k}"))
        .unwrap_or_else(|| "quote".to_owned());
    Ok(Curtain::json(200, &serde_json::json!({ "label": label, "quote": quote })))
}
