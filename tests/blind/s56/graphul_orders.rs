use std::sync::Arc;

use bytes::Bytes;
use flurry::HashMap as ConcurrentMap;
use graphul::http::{header::HeaderMap, StatusCode};
use graphul::{extract::State, Context, Graphul, IntoResponse};
use serde::Deserialize;

#[derive(Clone)]
struct AppState {
    replays: Arc<ConcurrentMap<String, Bytes>>,
    profiles: Arc<ConcurrentMap<String, Bytes>>,
    orders: crate::orders::OrderService,
}

#[derive(Deserialize)]
struct NewOrder {
    sku: String,
    quantity: u32,
}

struct Auth {
    org_id: String,
    user_id: String,
}

fn auth_from(headers: &HeaderMap) -> Option<Auth> {
    let org_id = headers.get("x-org-id")?.to_str().ok()?.to_owned();
    let user_id = headers.get("x-user-id")?.to_str().ok()?.to_owned();
    Some(Auth { org_id, user_id })
}

async fn create_order(c: Context, State(state): State<AppState>) -> impl IntoResponse {
    let Some(auth) = auth_from(c.headers()) else {
        return (StatusCode::UNAUTHORIZED, Bytes::new());
    };
    let key = match c.headers().get("idempotency-key").and_then(|v| v.to_str().ok()) {
        Some(raw) => raw.trim().trim_matches('"').to_owned(),
        None => return (StatusCode::BAD_REQUEST, Bytes::from_static(b"missing Idempotency-Key")),
    };

    let op = "orders.create";
    let slot = |k: &str| [auth.org_id.as_str(), auth.user_id.as_str(), op, k].join("|");

    let replays = state.replays.pin();
    if let Some(previous) = replays.get(&slot(&key)) {
        return (StatusCode::OK, previous.clone());
    }

    let order: NewOrder = match c.payload().await {
        Ok(o) => o,
        Err(_) => return (StatusCode::UNPROCESSABLE_ENTITY, Bytes::new()),
    };
    let created = state.orders.create(&auth.org_id, &order.sku, order.quantity).await;
    let body = Bytes::from(serde_json::to_vec(&created).unwrap_or_default());
    replays.insert(slot(&key), body.clone());
    (StatusCode::CREATED, body)
}

async fn my_profile(c: Context, State(state): State<AppState>) -> impl IntoResponse {
    let Some(auth) = auth_from(c.headers()) else {
        return (StatusCode::UNAUTHORIZED, Bytes::new());
    };
    let profile_cache_key = format!("user:{}:profile", auth.user_id);
    let profiles = state.profiles.pin();
    if let Some(hit) = profiles.get(&profile_cache_key) {
        return (StatusCode::OK, hit.clone());
    }
    let profile = crate::profiles::load(&auth.org_id, &auth.user_id).await;
    let body = Bytes::from(serde_json::to_vec(&profile).unwrap_or_default());
    profiles.insert(profile_cache_key, body.clone());
    (StatusCode::OK, body)
}

#[tokio::main]
async fn main() {
    let state = AppState {
        replays: Arc::new(ConcurrentMap::new()),
        profiles: Arc::new(ConcurrentMap::new()),
        orders: crate::orders::OrderService::connect().await,
    };
    let mut app = Graphul::share_state(state);
    app.post("/orders", create_order);
    app.get("/me", my_profile);
    app.run("0.0.0.0:8000").await;
}
