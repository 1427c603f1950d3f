use actix_web::{post, web, HttpRequest, HttpResponse, Responder};
use deadpool_redis::{redis::AsyncCommands, Pool};
use serde::{Deserialize, Serialize};

use crate::auth::Claims;
use crate::bookings::{BookingService, NewBooking};
use crate::errors::ApiError;

const REPLAY_TTL_SECS: u64 = 86_400;

#[derive(Deserialize)]
pub struct BookingBody {
    pub lane_id: String,
    pub pallets: u32,
}

#[derive(Serialize)]
struct BookingView {
    booking_id: String,
    status: &'static str,
}

#[post("/v1/bookings")]
pub async fn create_booking(
    req: HttpRequest,
    claims: Claims,
    body: web::Json<BookingBody>,
    pool: web::Data<Pool>,
    svc: web::Data<BookingService>,
) -> Result<impl Responder, ApiError> {
    let idem = req
        .headers()
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or(ApiError::MissingIdempotencyKey)?
        .to_owned();
    tracing::info!(idempotency_key = %idem, org = %claims.org_id, "booking request");

    let mut conn = pool.get().await.map_err(ApiError::from)?;
    let replay_key = format!("{}:{}:{}:{}", claims.org_id, claims.sub, "bookings.create", idem);
    if let Some(cached) = conn.get::<_, Option<String>>(&replay_key).await? {
        return Ok(HttpResponse::Ok().content_type("application/json").body(cached));
    }

    let booking = svc
        .create(NewBooking {
            lane_id: body.lane_id.trim_matches('/').to_owned(),
            pallets: body.pallets,
            org_id: claims.org_id.clone(),
        })
        .await?;
    let view = BookingView { booking_id: booking.id.to_string(), status: "confirmed" };
    let payload = serde_json::to_string(&view)?;

    conn.set_ex::<_, _, ()>(&replay_key, &payload, REPLAY_TTL_SECS).await?;
    let summary_key = format!("booking:{}:summary", booking.id);
    conn.set_ex::<_, _, ()>(&summary_key, booking.summary_line(), 3_600).await?;

    Ok(HttpResponse::Created().content_type("application/json").body(payload))
}
