use actix_web::{post, web, HttpResponse};
use idem_scope::{scoped, Fingerprint, Problem};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::auth::Claims;
use crate::replay::ReplayStore;
use crate::shipments::{ShipmentService, ShipmentSpec};

#[derive(Deserialize)]
pub struct CreateShipment {
    pub origin: String,
    pub destination: String,
    pub parcels: Vec<ShipmentSpec>,
    pub reference: Option<String>,
}

fn problem(p: Problem) -> HttpResponse {
    HttpResponse::build(actix_web::http::StatusCode::from_u16(p.status()).unwrap_or_default())
        .content_type(idem_scope::PROBLEM_CONTENT_TYPE)
        .body(p.to_json())
}

#[post("/v1/shipments")]
pub async fn create_shipment(
    claims: Claims,
    raw: web::Bytes,
    replays: web::Data<ReplayStore>,
    shipments: web::Data<ShipmentService>,
) -> actix_web::Result<HttpResponse> {
    let input: CreateShipment = serde_json::from_slice(&raw).map_err(actix_web::error::ErrorBadRequest)?;
    let canonical = serde_json::to_vec(&serde_json::json!({
        "origin": input.origin,
        "destination": input.destination,
        "parcels": input.parcels,
    }))?;
    let digest = hex::encode(Sha256::digest(&canonical));
    let fingerprint = Fingerprint::of("shipments.create", &raw);

    let key = match scoped(&claims.tenant_id, &claims.sub, "shipments.create", &digest) {
        Ok(k) => k,
        Err(e) => return Ok(problem(Problem::invalid_key(&e.to_string()))),
    };
    if let Some(prev) = replays.lookup(&key).await.map_err(actix_web::error::ErrorServiceUnavailable)? {
        return Ok(HttpResponse::Ok().insert_header(("Idempotent-Replayed", "true")).body(prev.body));
    }
    let created = shipments.create(&claims.tenant_id, &input.origin, &input.destination, &input.parcels).await?;
    let body = serde_json::to_vec(&created)?;
    replays
        .save(&key, &fingerprint, 201, &body)
        .await
        .map_err(actix_web::error::ErrorServiceUnavailable)?;
    Ok(HttpResponse::Created().content_type("application/json").body(body))
}
