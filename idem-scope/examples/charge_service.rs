//! An idempotent charge/refund service on axum, with an in-memory store.
//!
//! ```text
//! cargo run -p idem-scope --example charge_service      # listens on 127.0.0.1:3000
//! curl -i localhost:3000/v1/charges -H 'X-Tenant-Id: acme' -H 'X-User-Id: u1' \
//!      -H 'Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"' -d '{"amount":100}'
//! ```
//!
//! Identity comes from `X-Tenant-Id` / `X-User-Id` (stand-ins for real
//! authentication). The store's methods are `async` as a database's would be,
//! which is why the claim is released by a task the [`ClaimGuard`] spawns.
//!
//! Demo-only fault injection, so `tests/e2e.rs` can drive every path:
//! `X-Test-Hold: 1` waits after the claim until [`AppState::resume_held`],
//! `X-Test-Fail: 1` returns 503 early, `X-Test-Panic: 1` panics after the claim.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use idem_scope::{
    decide_at, scoped, ClaimGuard, Component, Decision, Fingerprint, IdempotencyKey, Problem,
    Record, RecordState, ScopeError, ScopedKey, DEFAULT_LEASE,
};

/// A completed request's response, replayed to byte-identical retries.
#[derive(Clone, Debug)]
pub struct StoredResponse {
    status: StatusCode,
    body: Bytes,
}

impl IntoResponse for StoredResponse {
    fn into_response(self) -> Response {
        let json = [(header::CONTENT_TYPE, "application/json")];
        (self.status, json, self.body).into_response()
    }
}

struct Entry {
    record: Record,
    /// Which claim owns an in-progress record: a late release from a claim
    /// that was taken over after its lease must not delete the new one.
    claim_id: u64,
    response: Option<StoredResponse>,
}

enum Begin {
    Claimed(u64),
    Replay(StoredResponse),
    InProgress,
    Mismatch,
}

/// Shared state: the idempotency store and the id counter.
#[derive(Clone)]
pub struct AppState {
    records: Arc<Mutex<HashMap<ScopedKey, Entry>>>,
    next_id: Arc<AtomicU64>,
    lease: Duration,
    held: Arc<tokio::sync::Notify>,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            records: Arc::default(),
            next_id: Arc::new(AtomicU64::new(1)),
            lease: DEFAULT_LEASE,
            held: Arc::default(),
        }
    }
}

impl AppState {
    fn records(&self) -> MutexGuard<'_, HashMap<ScopedKey, Entry>> {
        // The lock is never held across user code, so a poisoned map is still consistent.
        self.records.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Lets one request that sent `X-Test-Hold` finish (a permit is kept if
    /// none is waiting yet, so the order of the two does not matter).
    pub fn resume_held(&self) {
        self.held.notify_one();
    }

    /// Claims currently held (records still `in_progress`).
    pub fn in_flight(&self) -> usize {
        self.records()
            .values()
            .filter(|e| e.record.state == RecordState::InProgress)
            .count()
    }

    /// Decision and claim in one critical section, as `INSERT ... ON CONFLICT`
    /// would be in a database.
    async fn begin(&self, key: &ScopedKey, fp: Fingerprint) -> Begin {
        let mut records = self.records();
        let now = SystemTime::now();
        match decide_at(records.get(key).map(|e| &e.record), &fp, now, self.lease) {
            Decision::Proceed => {
                let claim_id = self.next_id();
                let record = Record::in_progress(fp).claimed_at(now);
                records.insert(
                    key.clone(),
                    Entry {
                        record,
                        claim_id,
                        response: None,
                    },
                );
                Begin::Claimed(claim_id)
            }
            Decision::Replay => match records.get(key).and_then(|e| e.response.clone()) {
                Some(response) => Begin::Replay(response),
                None => Begin::InProgress,
            },
            Decision::InProgress => Begin::InProgress,
            Decision::Mismatch => Begin::Mismatch,
        }
    }

    async fn complete(&self, key: &ScopedKey, claim_id: u64, response: StoredResponse) {
        if let Some(entry) = self
            .records()
            .get_mut(key)
            .filter(|e| e.claim_id == claim_id)
        {
            entry.record.state = RecordState::Completed;
            entry.response = Some(response);
        }
    }

    async fn release(&self, key: &ScopedKey, claim_id: u64) {
        let mut records = self.records();
        let ours = records
            .get(key)
            .is_some_and(|e| e.claim_id == claim_id && e.record.state == RecordState::InProgress);
        if ours {
            records.remove(key);
        }
    }
}

/// The service's routes.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/v1/charges", post(charge))
        .route("/v1/refunds", post(refund))
        .with_state(state)
}

async fn charge(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    idempotent(state, "POST /v1/charges", "charge", headers, body).await
}

async fn refund(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    idempotent(state, "POST /v1/refunds", "refund", headers, body).await
}

fn problem(p: Problem) -> Response {
    p.to_response().into_response()
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

async fn idempotent(
    state: AppState,
    route: &str,
    object: &str,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    // Fail closed: no identity, no key (never a "global" tenant).
    let (Some(tenant), Some(principal)) = (
        header_str(&headers, "x-tenant-id"),
        header_str(&headers, "x-user-id"),
    ) else {
        return (StatusCode::UNAUTHORIZED, "missing X-Tenant-Id / X-User-Id").into_response();
    };
    let client_key = match IdempotencyKey::from_headers(&headers) {
        Ok(k) => k,
        Err(e) => return problem(Problem::from_header_error(&e)),
    };
    let key = match scoped(tenant, principal, route, client_key.as_str()) {
        Ok(k) => k,
        Err(
            e @ ScopeError::TooLong {
                component: Component::Key,
                ..
            },
        ) => return problem(Problem::invalid_key(&e.to_string())),
        Err(e) => return (StatusCode::UNAUTHORIZED, e.to_string()).into_response(),
    };
    let fp = Fingerprint::of(route, &body);

    let claim_id = match state.begin(&key, fp).await {
        Begin::Claimed(id) => id,
        Begin::Replay(stored) => {
            let mut res = stored.into_response();
            res.headers_mut()
                .insert("idempotent-replayed", HeaderValue::from_static("true"));
            return res;
        }
        Begin::InProgress => return problem(Problem::in_progress(client_key.as_str())),
        Begin::Mismatch => return problem(Problem::mismatch(client_key.as_str())),
    };

    // Drop cannot await: hand the async release to a task. The handle is
    // captured now so the guard may be dropped anywhere, even while unwinding.
    let rt = tokio::runtime::Handle::current();
    let (release_state, release_key) = (state.clone(), key.clone());
    let guard = ClaimGuard::new(move || {
        rt.spawn(async move { release_state.release(&release_key, claim_id).await });
    });

    if headers.contains_key("x-test-hold") {
        state.held.notified().await;
    }
    if headers.contains_key("x-test-fail") {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "payment provider unavailable",
        )
            .into_response();
    }
    if headers.contains_key("x-test-panic") {
        panic!("simulated handler bug after the claim");
    }

    let id = format!("{object}_{}", state.next_id());
    let body = serde_json::json!({ "id": id, "object": object }).to_string();
    let stored = StoredResponse {
        status: StatusCode::CREATED,
        body: Bytes::from(body),
    };
    state.complete(&key, claim_id, stored.clone()).await;
    guard.complete();
    stored.into_response()
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
