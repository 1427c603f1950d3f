//! The seed's two-tenant `curl` check, grown into a test kit: real requests
//! against any service, one named check per incident (feature `conformance`).
//!
//! [`run`] drives a `tower::Service` (an axum `Router`, or [`HttpTarget`]
//! for a live base URL, which is what the `idem-probe` binary does) and
//! returns a [`Report`]: each check passed or failed, with the evidence
//! (statuses, ids). Every check uses fresh keys, so it can run against a
//! live service repeatedly.
//!
//! ```
//! # #[tokio::main(flavor = "multi_thread", worker_threads = 2)]
//! # async fn main() {
//! use axum::{extract::{MatchedPath, State}, routing::post, Router};
//! use idem_scope::conformance::{run, Target};
//! use idem_scope::{IdempotencyLayer, MemoryStore, Problem, Scope};
//! use std::sync::{atomic::{AtomicU64, Ordering}, Arc};
//!
//! let scope = |parts: &http::request::Parts| {
//!     let h = |n| parts.headers.get(n).and_then(|v| v.to_str().ok()).map(str::to_owned);
//!     let route = parts.extensions.get::<MatchedPath>().map_or("", |m| m.as_str()).to_owned();
//!     match (h("x-tenant-id"), h("x-user-id")) {
//!         (Some(tenant), Some(principal)) => Ok(Scope { tenant, principal, route }),
//!         _ => Err(Problem::unauthenticated("no identity")),
//!     }
//! };
//! async fn create(State(n): State<Arc<AtomicU64>>, headers: http::HeaderMap) -> (http::StatusCode, String) {
//!     if headers.contains_key("x-test-delay-ms") {
//!         tokio::time::sleep(std::time::Duration::from_millis(600)).await;
//!     }
//!     if headers.contains_key("x-test-fail") {
//!         return (http::StatusCode::SERVICE_UNAVAILABLE, String::new());
//!     }
//!     (http::StatusCode::CREATED, format!(r#"{{"id":"{}"}}"#, n.fetch_add(1, Ordering::SeqCst)))
//! }
//! let app = Router::new()
//!     .route("/v1/charges", post(create))
//!     .route("/v1/refunds", post(create))
//!     .route_layer(IdempotencyLayer::new(MemoryStore::new(), scope))
//!     .with_state(Arc::new(AtomicU64::new(1)));
//!
//! let mut target = Target::charge_service(app);
//! target.failures.truncate(1); // this handler cannot panic on request
//! let report = run(&target).await;
//! println!("{report}");
//! assert!(report.all_passed(), "{report}");
//! # }
//! ```

mod checks;
mod http_target;

use std::fmt;

use bytes::Bytes;
use http::{Request, Response};
use http_body::Body;
use http_body_util::Full;

pub use http_target::HttpTarget;

/// Header lines, as `(name, value)`.
pub type Headers = Vec<(String, String)>;

fn headers(pairs: &[(&str, &str)]) -> Headers {
    pairs
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect()
}

/// A `POST` route and the body the kit sends to it.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// Path (and query), e.g. `/v1/charges`.
    pub path: String,
    /// Body sent with the key. Each `{nonce}` in it is replaced by a value
    /// unique to the check (and run), so the checks do not see each other's
    /// records even on a service that keys by payload.
    pub body: Vec<u8>,
}

/// How to talk to the service under test.
#[derive(Debug, Clone)]
pub struct Target<S> {
    /// The service; cloned per request.
    pub service: S,
    /// Authenticates as tenant A, principal 1.
    pub tenant_a: Headers,
    /// Authenticates as tenant B (same principal id as A's, if ids are
    /// per tenant).
    pub tenant_b: Headers,
    /// Authenticates as another principal of tenant A.
    pub principal_b: Headers,
    /// The operation the checks repeat (e.g. a payment).
    pub route: Endpoint,
    /// Its sibling operation (e.g. the refund), same key.
    pub sibling: Endpoint,
    /// Another body for [`Target::route`] (the 422 check); `{nonce}` as in
    /// [`Endpoint::body`].
    pub other_body: Vec<u8>,
    /// Headers that make the handler take long enough (about a second) for
    /// a second request to arrive while the first is in flight.
    pub slow: Headers,
    /// Header sets that each make the handler fail once (a 5xx, a panic).
    pub failures: Vec<Headers>,
    /// The JSON member of a success body that holds the created resource's id.
    pub id_field: String,
}

impl<S> Target<S> {
    /// The conventions of `examples/charge_service.rs`: identity in
    /// `X-Tenant-Id` / `X-User-Id`, `POST /v1/charges` and `/v1/refunds`,
    /// `X-Test-Delay-Ms`, `X-Test-Fail` and `X-Test-Panic`, id in `"id"`.
    pub fn charge_service(service: S) -> Self {
        Target {
            service,
            tenant_a: headers(&[("x-tenant-id", "tenant_a"), ("x-user-id", "u1")]),
            tenant_b: headers(&[("x-tenant-id", "tenant_b"), ("x-user-id", "u1")]),
            principal_b: headers(&[("x-tenant-id", "tenant_a"), ("x-user-id", "u2")]),
            route: Endpoint {
                path: "/v1/charges".to_owned(),
                body: br#"{"amount":100,"currency":"EUR","ref":"{nonce}"}"#.to_vec(),
            },
            sibling: Endpoint {
                path: "/v1/refunds".to_owned(),
                body: br#"{"amount":100,"currency":"EUR","ref":"{nonce}"}"#.to_vec(),
            },
            other_body: br#"{"amount":999,"currency":"EUR","ref":"{nonce}"}"#.to_vec(),
            slow: headers(&[("x-test-delay-ms", "1000")]),
            failures: vec![
                headers(&[("x-test-fail", "1")]),
                headers(&[("x-test-panic", "1")]),
            ],
            id_field: "id".to_owned(),
        }
    }
}

/// One check's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The check's name (see [`CHECKS`]).
    pub check: &'static str,
    /// Whether the service behaved as the check requires.
    pub passed: bool,
    /// What was sent and received: statuses, ids, headers.
    pub evidence: String,
}

/// Every check, in the order [`run`] performs them, with the incident each
/// one guards against.
pub const CHECKS: [(&str, &str); 9] = [
    (
        "tenant_isolation",
        "two tenants, same key: two different resources",
    ),
    (
        "principal_isolation",
        "two principals of one tenant, same key: isolated",
    ),
    (
        "sibling_routes",
        "same key on the sibling route (pay vs refund): both execute",
    ),
    (
        "exact_retry_replays",
        "exact retry: the stored response, handler ran once",
    ),
    (
        "new_key_runs",
        "same payload under a new key: executes again",
    ),
    ("payload_mismatch_422", "same key, other payload: 422"),
    (
        "in_flight_409",
        "retry while the first is in flight: 409 with Retry-After",
    ),
    ("missing_key_400", "no key: 400 problem+json with a type"),
    (
        "failure_releases",
        "a failing or panicking handler: the retry runs again",
    ),
];

/// The outcome of every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// One per check, in [`CHECKS`] order.
    pub outcomes: Vec<Outcome>,
}

impl Report {
    /// True when every check passed.
    pub fn all_passed(&self) -> bool {
        self.outcomes.iter().all(|o| o.passed)
    }

    /// Names of the failed checks.
    pub fn failed(&self) -> Vec<&'static str> {
        self.outcomes
            .iter()
            .filter(|o| !o.passed)
            .map(|o| o.check)
            .collect()
    }
}

/// A table: check, PASS/FAIL, evidence.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "| check | result | evidence |")?;
        writeln!(f, "|---|---|---|")?;
        for o in &self.outcomes {
            let result = if o.passed { "PASS" } else { "FAIL" };
            writeln!(f, "| {} | {result} | {} |", o.check, o.evidence)?;
        }
        let failed = self.failed().len();
        write!(
            f,
            "{} of {} checks passed",
            self.outcomes.len() - failed,
            self.outcomes.len()
        )
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Runs every check in [`CHECKS`] against `target`.
///
/// Needs a multi-threaded tokio runtime only if the service does; each
/// request runs in its own task, so a panicking handler is recorded as a
/// failed request instead of ending the run.
pub async fn run<S, B>(target: &Target<S>) -> Report
where
    S: tower::Service<Request<Full<Bytes>>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    checks::all(target).await
}
