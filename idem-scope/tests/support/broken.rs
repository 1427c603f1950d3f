//! Deliberately broken idempotency middleware, one bug each, modelled on
//! what services adopt today. The conformance kit must fail each on exactly
//! the checks its bug breaks. Everything else (claim, 409, 422, replay,
//! release on failure via `ClaimGuard`) is done as the layer does it.

use std::time::{Duration, SystemTime};

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use idem_scope::{
    decide_at, scoped, ClaimGuard, Claimed, Decision, Fingerprint, IdempotencyKey, MemoryStore,
    Problem, Store, StoredResponse,
};

use super::service::{self, AppState};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bug {
    /// The record is keyed by the client's key alone.
    RawKey,
    /// Keyed by (tenant, key): no principal, no route.
    TenantOnly,
    /// Keyed by the payload's hash; the client's key is only required.
    BodyHashAsKey,
    /// A failed or panicking request keeps its claim.
    NoRelease,
}

impl Bug {
    /// The checks the bug must fail, and only those.
    pub fn fails(self) -> Vec<&'static str> {
        match self {
            Bug::RawKey => vec!["tenant_isolation", "principal_isolation", "sibling_routes"],
            Bug::TenantOnly => vec!["principal_isolation", "sibling_routes"],
            Bug::BodyHashAsKey => vec!["new_key_runs", "payload_mismatch_422"],
            Bug::NoRelease => vec!["failure_releases"],
        }
    }
}

fn problem(p: Problem) -> Response {
    p.to_response().into_response()
}

async fn broken(
    State((bug, store)): State<(Bug, MemoryStore)>,
    req: Request,
    next: Next,
) -> Response {
    let (parts, body) = req.into_parts();
    let Ok(bytes) = to_bytes(body, 1 << 20).await else {
        return problem(Problem::payload_too_large(1 << 20));
    };
    let client_key = match IdempotencyKey::from_headers_lenient(&parts.headers) {
        Ok(k) => k,
        Err(e) => return problem(Problem::from_header_error(&e)),
    };
    let scope = match service::scope(&parts) {
        Ok(s) => s,
        Err(p) => return problem(p),
    };
    let fp = Fingerprint::of(&scope.route, &bytes);
    let (tenant, principal, route, key) = match bug {
        Bug::RawKey => ("-", "-", "-", client_key.as_str().to_owned()),
        Bug::TenantOnly => (
            scope.tenant.as_str(),
            "-",
            "-",
            client_key.as_str().to_owned(),
        ),
        Bug::BodyHashAsKey => (
            scope.tenant.as_str(),
            scope.principal.as_str(),
            scope.route.as_str(),
            Fingerprint::of("", &bytes).to_string(),
        ),
        Bug::NoRelease => (
            scope.tenant.as_str(),
            scope.principal.as_str(),
            scope.route.as_str(),
            client_key.as_str().to_owned(),
        ),
    };
    let key = scoped(tenant, principal, route, &key).expect("valid test scope");
    let lease = Duration::from_secs(300);
    let token = match store.claim(&key, &fp, lease).await.expect("memory store") {
        Claimed::New(token) => token,
        Claimed::Existing(record, response) => {
            return match (
                decide_at(Some(&record), &fp, SystemTime::now(), lease),
                response,
            ) {
                (Decision::Replay, Some(r)) => {
                    let mut res = Response::new(Body::from(r.body));
                    *res.status_mut() = http::StatusCode::from_u16(r.status).unwrap();
                    res.headers_mut().insert(
                        "idempotent-replayed",
                        http::HeaderValue::from_static("true"),
                    );
                    res
                }
                (Decision::Mismatch, _) => problem(Problem::mismatch(client_key.as_str())),
                _ => problem(Problem::in_progress(client_key.as_str())),
            };
        }
    };
    let guard = {
        let (store, key, token) = (store.clone(), key.clone(), token.clone());
        let rt = tokio::runtime::Handle::current();
        ClaimGuard::new(move || {
            if bug != Bug::NoRelease {
                rt.spawn(async move { store.release(&key, &token).await });
            }
        })
    };
    let res = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    if res.status().is_server_error() {
        return res;
    }
    let (head, body) = res.into_parts();
    let body = to_bytes(body, usize::MAX).await.expect("handler body");
    let stored = StoredResponse {
        status: head.status.as_u16(),
        headers: vec![],
        body: body.to_vec(),
    };
    store
        .complete(&key, &token, &stored, Duration::from_secs(3600))
        .await
        .expect("memory store");
    guard.complete();
    Response::from_parts(head, Body::from(body))
}

/// The example's routes behind the broken middleware instead of the layer.
pub fn app(bug: Bug) -> Router {
    let state = AppState::default();
    let store = MemoryStore::new();
    Router::new()
        .route("/v1/charges", post(service::charge))
        .route("/v1/refunds", post(service::refund))
        .route_layer(middleware::from_fn_with_state((bug, store), broken))
        .with_state(state)
}
