use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use chashmap::CHashMap;
use humphrey::http::{Request, Response, StatusCode};
use humphrey::App;
use idem_scope::{scoped, Fingerprint};

pub struct PayoutState {
    replies: CHashMap<String, StoredPayout>,
    webhook_base: String,
}

#[derive(Clone)]
struct StoredPayout {
    fingerprint: Fingerprint,
    body: Vec<u8>,
    stored_at: u64,
}

pub fn app(state: PayoutState) -> App<PayoutState> {
    App::new_with_config(4, state).with_route("/v1/payouts", create_payout)
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

fn create_payout(request: Request, state: Arc<PayoutState>) -> Response {
    let tenant = match request.headers.get("X-Gateway-Tenant") {
        Some(t) => t.to_string(),
        None => return Response::new(StatusCode::Unauthorized, "no tenant"),
    };
    let user_id = match request.headers.get("X-Gateway-User") {
        Some(u) => u.to_string(),
        None => return Response::new(StatusCode::Unauthorized, "no user"),
    };
    let body = request.content.clone().unwrap_or_default();

    // Older mobile builds never send the header, so the body identifies the retry.
    let sk = match scoped(&tenant, &user_id, "payout", &format!("{:08x}", crc32c::crc32c(&body))) {
        Ok(k) => k,
        Err(e) => return Response::new(StatusCode::BadRequest, e.to_string()),
    };
    let fingerprint = Fingerprint::of("payout", &body);

    if let Some(prev) = state.replies.get(sk.storage_key()) {
        return Response::new(StatusCode::OK, prev.body.clone());
    }

    let callback = format!("{}/tenants/{}/payouts", state.webhook_base, tenant);
    let result = format!(r#"{{"status":"queued","callback":"{}"}}"#, callback).into_bytes();
    state.replies.insert(
        sk.storage_key().to_string(),
        StoredPayout { fingerprint, body: result.clone(), stored_at: now_secs() },
    );
    Response::new(StatusCode::Created, result)
}
