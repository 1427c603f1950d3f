use actix_web::{post, web, HttpMessage, HttpRequest, HttpResponse};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

use crate::auth::JwtClaims;
use crate::lanes::{LaneDesk, Reservation};
use crate::replay::LaneReplays;

#[derive(Deserialize)]
pub struct ReserveLane {
    pub lane_id: String,
    pub week: u16,
    pub trucks: u8,
}

#[derive(Default, Clone)]
pub struct PageOpts {
    pub limit: Option<u32>,
}

#[post("/v1/lanes/reservations")]
pub async fn reserve_lane(
    req: HttpRequest,
    body: web::Json<ReserveLane>,
    replays: web::Data<LaneReplays>,
    desk: web::Data<LaneDesk>,
) -> actix_web::Result<HttpResponse> {
    let claims = req.extensions().get::<JwtClaims>().cloned();
    let org_id = claims.as_ref().and_then(|c| c.org_id.clone()).unwrap_or_default();
    let sub = claims
        .as_ref()
        .map(|c| c.sub.clone())
        .ok_or_else(|| actix_web::error::ErrorUnauthorized("token has no subject"))?;
    let page = req.extensions().get::<PageOpts>().cloned().unwrap_or_default();
    let limit = page.limit.unwrap_or(50);

    let Some(client_key) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
        return Ok(HttpResponse::BadRequest()
            .content_type(idem_scope::PROBLEM_CONTENT_TYPE)
            .body(Problem::missing_key().to_json()));
    };
    let key = scoped(&org_id, &sub, "lanes.reserve", client_key)
        .map_err(|e| actix_web::error::ErrorBadRequest(e.to_string()))?;

    if let Some(prev) = replays.get(&key).await? {
        return Ok(HttpResponse::Ok().json(prev));
    }
    let reservation: Reservation = desk.reserve(&org_id, &body.lane_id, body.week, body.trucks, limit).await?;
    replays.put(&key, &reservation).await?;
    Ok(HttpResponse::Created().json(reservation))
}
