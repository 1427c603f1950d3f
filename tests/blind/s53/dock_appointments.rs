use std::time::Duration;

use actix_web::{web, HttpRequest, HttpResponse};
use idem_scope::{decide, scoped, Claimed, Decision, Fingerprint, Problem, Store, StoredResponse};

use crate::auth::Claims;
use crate::docks::{AppointmentRequest, DockScheduler};
use crate::errors::ApiError;

const LEASE: Duration = Duration::from_secs(300);
const TTL: Duration = Duration::from_secs(24 * 3600);

pub async fn book_dock_slot<S: Store>(
    req: HttpRequest,
    claims: Claims,
    raw: web::Bytes,
    store: web::Data<S>,
    scheduler: web::Data<DockScheduler>,
) -> Result<HttpResponse, ApiError> {
    let client_key = req
        .headers()
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ApiError::problem(Problem::missing_key()))?;
    let key = scoped(&claims.tenant_id, &claims.sub, "docks.book", client_key)
        .map_err(|e| ApiError::problem(Problem::invalid_key(&e.to_string())))?;
    let fp = Fingerprint::of("docks.book", &raw);

    match store.claim(&key, &fp, LEASE).await? {
        Claimed::New => {}
        Claimed::Existing(record, stored) => {
            return match (decide(Some(&record), &fp), stored) {
                (Decision::Replay, Some(resp)) => Ok(ApiError::replay(resp)),
                (Decision::Mismatch, _) => Err(ApiError::problem(Problem::mismatch(client_key))),
                _ => Err(ApiError::problem(Problem::in_progress(client_key))),
            };
        }
    }

    let appointment: AppointmentRequest = serde_json::from_slice(&raw)?;
    let confirmed = scheduler.book(&claims.tenant_id, appointment).await?;
    let body = serde_json::to_vec(&confirmed)?;

    let echoed = format!("\"{client_key}\"");
    let stored = StoredResponse { status: 201, headers: vec![("Idempotency-Key".to_owned(), echoed.into_bytes())], body: body.clone() };
    store.complete(&key, &stored, TTL).await?;
    Ok(HttpResponse::Created().content_type("application/json").body(body))
}
