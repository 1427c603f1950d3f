//! An idempotent charge/refund service: plain axum handlers behind one
//! `IdempotencyLayer`.
//!
//! ```text
//! cargo run -p idem-scope --features tower --example charge_service   # 127.0.0.1:3000
//! curl -i localhost:3000/v1/charges -H 'X-Tenant-Id: acme' -H 'X-User-Id: u1' \
//!      -H 'Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"' -d '{"amount":100}'
//! ```
//!
//! Identity comes from `X-Tenant-Id` / `X-User-Id` (stand-ins for a real
//! authentication layer, which would put the identity in the request's
//! extensions). The handlers know nothing about idempotency: the layer
//! claims, replays, answers 400/409/422 and releases.
//!
//! Demo-only fault injection, so `tests/e2e.rs` and `idem-probe` can drive
//! every path: `X-Test-Hold: 1` waits until [`AppState::resume_held`],
//! `X-Test-Delay-Ms: n` sleeps n ms, `X-Test-Fail: 1` answers 503,
//! `X-Test-Panic: 1` panics.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{MatchedPath, State};
use axum::http::{request::Parts, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use idem_scope::{IdempotencyLayer, MemoryStore, Problem, Scope, ScopeResolver, Store};

/// The service's state: an id counter and the demo hold.
#[derive(Clone, Default)]
pub struct AppState {
    executions: Arc<AtomicU64>,
    held: Arc<tokio::sync::Notify>,
    holding: Arc<AtomicU64>,
    store: MemoryStore,
}

impl AppState {
    /// Lets one request that sent `X-Test-Hold` finish (a permit is kept if
    /// none is waiting yet, so the order of the two does not matter).
    pub fn resume_held(&self) {
        self.held.notify_one();
    }

    /// Claims currently held in the memory store.
    pub fn in_flight(&self) -> usize {
        self.store.in_flight()
    }

    /// How many requests that sent `X-Test-Hold` have reached the hold
    /// (the handler runs, past the layer's claim).
    pub fn holding(&self) -> u64 {
        self.holding.load(Ordering::SeqCst)
    }

    /// How many times a handler ran to the point of creating something.
    pub fn executions(&self) -> u64 {
        self.executions.load(Ordering::SeqCst)
    }
}

/// The scope of a request: tenant and principal from the (stand-in)
/// authentication headers, the route from axum's matched path. No identity,
/// no scope: 401, never a shared fallback.
pub fn scope(parts: &Parts) -> Result<Scope, Problem> {
    let header = |name| parts.headers.get(name).and_then(|v| v.to_str().ok());
    let (Some(tenant), Some(principal)) = (header("x-tenant-id"), header("x-user-id")) else {
        return Err(Problem::unauthenticated(
            "send X-Tenant-Id and X-User-Id (stand-ins for authentication)",
        ));
    };
    let path = parts
        .extensions
        .get::<MatchedPath>()
        .map_or(parts.uri.path(), MatchedPath::as_str);
    Ok(Scope {
        tenant: tenant.to_owned(),
        principal: principal.to_owned(),
        route: format!("{} {path}", parts.method),
    })
}

/// The routes with the in-memory store of `state`.
pub fn app(state: AppState) -> Router {
    let store = state.store.clone();
    app_with(state, store)
}

/// The routes with any store (the PostgreSQL and Redis tests use this).
pub fn app_with<St: Store>(state: AppState, store: St) -> Router {
    app_with_layer(state, IdempotencyLayer::new(store, scope))
}

/// The routes behind a configured layer (e.g. with `Aliases`).
pub fn app_with_layer<St: Store, R: ScopeResolver>(
    state: AppState,
    layer: IdempotencyLayer<St, R>,
) -> Router {
    Router::new()
        .route("/v1/charges", post(charge))
        .route("/v1/refunds", post(refund))
        .route_layer(layer)
        .with_state(state)
}

/// `POST /v1/charges`: creates a charge (no idempotency code: the layer's job).
pub async fn charge(State(state): State<AppState>, headers: HeaderMap) -> Response {
    create(state, "charge", headers).await
}

/// `POST /v1/refunds`: creates a refund.
pub async fn refund(State(state): State<AppState>, headers: HeaderMap) -> Response {
    create(state, "refund", headers).await
}

async fn create(state: AppState, object: &str, headers: HeaderMap) -> Response {
    if headers.contains_key("x-test-hold") {
        state.holding.fetch_add(1, Ordering::SeqCst);
        state.held.notified().await;
    }
    let delay = headers
        .get("x-test-delay-ms")
        .and_then(|v| v.to_str().ok()?.parse().ok());
    if let Some(ms) = delay {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    if headers.contains_key("x-test-fail") {
        let down = "payment provider unavailable";
        return (StatusCode::SERVICE_UNAVAILABLE, down).into_response();
    }
    if headers.contains_key("x-test-panic") {
        panic!("simulated handler bug after the claim");
    }
    let n = state.executions.fetch_add(1, Ordering::SeqCst) + 1;
    let id = format!("{object}_{n}");
    let body = Json(serde_json::json!({ "id": id, "object": object }));
    (StatusCode::CREATED, body).into_response()
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::var("ADDR").unwrap_or_else(|_| "127.0.0.1:3000".to_owned());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    println!(
        "charge_service listening on http://{}",
        listener.local_addr()?
    );
    axum::serve(listener, app(AppState::default())).await
}
