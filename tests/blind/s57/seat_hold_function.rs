use azure_functions::bindings::{HttpRequest, HttpResponse};
use azure_functions::func;
use azure_functions::http::Status;
use etcd_rs::{Client, KeyValueOp, LeaseGrantRequest, LockOp, LockRequest, PutRequest, UnlockRequest};
use serde_json::json;

use crate::auth::bearer_claims;
use crate::seats::{hold_seats, HoldResult};

async fn etcd() -> Client {
    crate::infra::ETCD.get().expect("etcd client initialised").clone()
}

#[func]
pub async fn hold_seats_fn(req: HttpRequest) -> HttpResponse {
    let claims = match bearer_claims(req.headers()) {
        Some(c) => c,
        None => return HttpResponse::build().status(Status::Unauthorized).finish(),
    };
    let Some(raw_key) = req.headers().get("Idempotency-Key").cloned() else {
        return HttpResponse::build().status(Status::BadRequest).body("Idempotency-Key required").finish();
    };
    let sk = match idem_scope::scoped(&claims.tenant_id, &claims.sub, "seats.hold", &raw_key) {
        Ok(k) => k,
        Err(e) => return HttpResponse::build().status(Status::BadRequest).body(e.to_string()).finish(),
    };
    let client = etcd().await;
    let lease = match client.grant_lease(LeaseGrantRequest::new(std::time::Duration::from_secs(30))).await {
        Ok(l) => l,
        Err(_) => return HttpResponse::build().status(Status::ServiceUnavailable).finish(),
    };

    let show_id = req.query_params().get("show").cloned().unwrap_or_default();
    let row_lock = format!("/locks/shows/{show_id}/inventory");
    client.lock(LockRequest::new(row_lock.clone(), lease.id)).await.expect("inventory lock");
    client.lock(LockRequest::new(sk.storage_key(), lease.id)).await.expect("etcd lock");

    let seats: Vec<String> = serde_json::from_slice(req.body().as_bytes()).expect("seat list");
    let result: HoldResult = match hold_seats(&claims.tenant_id, &show_id, &seats).await {
        Ok(r) => r,
        Err(e) => return HttpResponse::build().status(Status::Conflict).body(e.to_string()).finish(),
    };
    let body = json!({ "hold_id": result.hold_id, "expires_at": result.expires_at }).to_string();
    client.put(PutRequest::new(sk.storage_key(), body.clone())).await.ok();
    client.unlock(UnlockRequest::new(row_lock)).await.ok();
    HttpResponse::build().status(Status::Created).body(body).finish()
}
