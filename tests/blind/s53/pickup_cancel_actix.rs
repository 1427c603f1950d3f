use actix_web::{dev::Payload, http::StatusCode, web, FromRequest, HttpRequest, HttpResponse};
use futures_util::future::{err, ok, Ready};
use idem_scope::{scoped, IdempotencyKey, Problem, PROBLEM_CONTENT_TYPE};

use crate::auth::Identity;
use crate::pickups::{PickupService, RescheduleBody};
use crate::state::AppState;

pub struct ClientKey(pub String);

impl FromRequest for ClientKey {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        match req.headers().get("Idempotency-Key").map(|v| IdempotencyKey::parse_lenient(v.as_bytes())) {
            Some(Ok(k)) => ok(ClientKey(k.as_str().to_owned())),
            Some(Err(e)) => err(actix_web::error::ErrorBadRequest(e.to_string())),
            None => err(actix_web::error::ErrorBadRequest("missing Idempotency-Key")),
        }
    }
}

fn problem(p: Problem) -> HttpResponse {
    HttpResponse::build(StatusCode::from_u16(p.status()).unwrap_or(StatusCode::BAD_REQUEST))
        .content_type(PROBLEM_CONTENT_TYPE)
        .body(p.to_json())
}

pub async fn cancel_pickup(
    path: web::Path<String>,
    who: Identity,
    key: ClientKey,
    state: web::Data<AppState>,
    pickups: web::Data<PickupService>,
) -> HttpResponse {
    let mut slot = state.replays.entry(key.0.clone()).await;
    if let Some(done) = slot.value() {
        return HttpResponse::Ok().json(done);
    }
    match pickups.cancel(&who.tenant_id, &path).await {
        Ok(receipt) => {
            slot.fill(serde_json::to_value(&receipt).unwrap_or_default());
            HttpResponse::Ok().json(receipt)
        }
        Err(e) => HttpResponse::Conflict().body(e.to_string()),
    }
}

pub async fn reschedule_pickup(
    path: web::Path<String>,
    who: Identity,
    key: ClientKey,
    body: web::Json<RescheduleBody>,
    state: web::Data<AppState>,
    pickups: web::Data<PickupService>,
) -> HttpResponse {
    let scoped_key = match scoped(&who.tenant_id, &who.user_id, "pickups.reschedule", &key.0) {
        Ok(k) => k,
        Err(e) => return problem(Problem::invalid_key(&e.to_string())),
    };
    let mut slot = state.replays.entry(scoped_key.storage_key().to_owned()).await;
    if let Some(done) = slot.value() {
        return HttpResponse::Ok().json(done);
    }
    match pickups.reschedule(&who.tenant_id, &path, body.into_inner()).await {
        Ok(receipt) => {
            slot.fill(serde_json::to_value(&receipt).unwrap_or_default());
            HttpResponse::Ok().json(receipt)
        }
        Err(e) => HttpResponse::Conflict().body(e.to_string()),
    }
}
