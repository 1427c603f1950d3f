//! The whole idempotent-endpoint flow as one tower layer.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderName, HeaderValue, Request, Response, StatusCode};
use http_body::Body;
use http_body_util::{BodyExt, Either, Full, LengthLimitError, Limited};

use crate::store::{ClaimToken, Claimed, Store, StoredResponse};
use crate::{
    decide_at, scoped, Aliases, ClaimGuard, Component, Decision, Fingerprint, IdempotencyKey,
    Problem, Record, ScopeError, ScopedKey, DEFAULT_LEASE, IDEMPOTENCY_KEY_HEADER,
};

/// Header set on a replayed response.
pub const REPLAYED_HEADER: &str = "idempotent-replayed";

/// Default time a completed record is replayed: 24 hours, as the draft suggests.
pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 3600);

/// Default bound on a buffered request body: 1 MiB.
pub const DEFAULT_MAX_BODY: usize = 1 << 20;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Who is calling and which operation: the scope of a client's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// The authenticated tenant (organisation, account).
    pub tenant: String,
    /// The authenticated principal within the tenant (user, API key).
    pub principal: String,
    /// The operation, e.g. `POST /v1/charges` (a matched route, not a raw path).
    pub route: String,
}

/// Finds the [`Scope`] of a request from its head: extensions set by the
/// service's authentication layer, the matched route.
///
/// An error is the response: there is no global fallback scope, because a
/// key scoped by nothing is shared by every caller.
///
/// Any `Fn(&Parts) -> Result<Scope, Problem> + Clone + Send + Sync + 'static`
/// is a resolver.
pub trait ScopeResolver: Clone + Send + Sync + 'static {
    /// The scope of the request, or the problem to answer with (usually
    /// [`Problem::unauthenticated`]).
    fn resolve(&self, parts: &Parts) -> Result<Scope, Problem>;
}

impl<F> ScopeResolver for F
where
    F: Fn(&Parts) -> Result<Scope, Problem> + Clone + Send + Sync + 'static,
{
    fn resolve(&self, parts: &Parts) -> Result<Scope, Problem> {
        self(parts)
    }
}

#[derive(Debug, Clone)]
struct Settings {
    required: bool,
    strict: bool,
    ttl: Duration,
    lease: Duration,
    max_body: usize,
    aliases: Option<Aliases>,
}

/// Makes the routes it wraps idempotent (draft-ietf-httpapi-idempotency-key-header).
///
/// For each request: parse `Idempotency-Key` (lenient by default), resolve
/// the [`Scope`], build the key with [`scoped`], fingerprint route and raw
/// body with [`Fingerprint::of`], [`Store::claim`], then by [`decide_at`]:
///
/// | outcome | response |
/// |---|---|
/// | new claim | the inner service runs; a 2xx/4xx response is stored, a 5xx releases the claim |
/// | completed, same payload | the stored response with `Idempotent-Replayed: true` |
/// | in flight | 409 problem+json with `Retry-After` |
/// | other payload under the key | 422 problem+json |
/// | no key (required) / invalid key | 400 problem+json |
/// | body over [`IdempotencyLayer::max_body`] | 413 problem+json |
/// | store down | 503 problem+json, nothing executed |
///
/// A claim is released when the inner service errors, answers 5xx, panics or
/// its future is dropped (the client went away), so a retry runs again
/// instead of meeting a stuck 409.
///
/// Apply it to the routes that create something (`route_layer` in axum, so
/// the matched route is known to the resolver):
///
/// ```
/// use axum::{extract::MatchedPath, routing::post, Router};
/// use idem_scope::{IdempotencyLayer, MemoryStore, Problem, Scope};
///
/// fn scope(parts: &http::request::Parts) -> Result<Scope, Problem> {
///     let header = |name| parts.headers.get(name).and_then(|v| v.to_str().ok());
///     let (Some(tenant), Some(principal)) = (header("x-tenant-id"), header("x-user-id")) else {
///         return Err(Problem::unauthenticated("sign in first"));
///     };
///     let route = parts.extensions.get::<MatchedPath>().map_or(parts.uri.path(), |m| m.as_str());
///     Ok(Scope { tenant: tenant.into(), principal: principal.into(), route: format!("{} {route}", parts.method) })
/// }
///
/// let app: Router = Router::new()
///     .route("/v1/charges", post(|| async { "charged" }))
///     .route_layer(IdempotencyLayer::new(MemoryStore::new(), scope));
/// ```
#[derive(Debug, Clone)]
pub struct IdempotencyLayer<St, R> {
    store: St,
    resolver: R,
    settings: Arc<Settings>,
}

impl<St: Store, R: ScopeResolver> IdempotencyLayer<St, R> {
    /// A layer requiring a key on every request it wraps (400 without one).
    pub fn new(store: St, resolver: R) -> Self {
        IdempotencyLayer {
            store,
            resolver,
            settings: Arc::new(Settings {
                required: true,
                strict: false,
                ttl: DEFAULT_TTL,
                lease: DEFAULT_LEASE,
                max_body: DEFAULT_MAX_BODY,
                aliases: None,
            }),
        }
    }

    fn with(mut self, change: impl FnOnce(&mut Settings)) -> Self {
        change(Arc::make_mut(&mut self.settings));
        self
    }

    /// Requests without a key pass through untouched (neither buffered nor
    /// stored); requests with one are handled as usual.
    pub fn optional(self) -> Self {
        self.with(|s| s.required = false)
    }

    /// Accept only RFC 9651 sf-strings (`"k"`), not bare values.
    pub fn strict(self) -> Self {
        self.with(|s| s.strict = true)
    }

    /// How long a completed response is replayed (default [`DEFAULT_TTL`]).
    pub fn ttl(self, d: Duration) -> Self {
        self.with(|s| s.ttl = d)
    }

    /// How long a claim is honoured before a retry may take it over
    /// (default [`DEFAULT_LEASE`]); set it above the slowest handler.
    pub fn lease(self, d: Duration) -> Self {
        self.with(|s| s.lease = d)
    }

    /// Largest body buffered for the fingerprint (default [`DEFAULT_MAX_BODY`]);
    /// a larger one is answered 413 without running anything.
    pub fn max_body(self, bytes: usize) -> Self {
        self.with(|s| s.max_body = bytes)
    }

    /// Consult these [`Aliases`] on a miss (identity moves).
    pub fn aliases(self, aliases: Aliases) -> Self {
        self.with(|s| s.aliases = Some(aliases))
    }
}

impl<S, St: Clone, R: Clone> tower::Layer<S> for IdempotencyLayer<St, R> {
    type Service = Idempotency<S, St, R>;

    fn layer(&self, inner: S) -> Self::Service {
        Idempotency {
            inner,
            store: self.store.clone(),
            resolver: self.resolver.clone(),
            settings: Arc::clone(&self.settings),
        }
    }
}

/// The service [`IdempotencyLayer`] wraps around an inner service.
///
/// The inner service receives the buffered body (`Either::Left`) or, for a
/// keyless request on an optional layer, the original one (`Either::Right`).
#[derive(Debug, Clone)]
pub struct Idempotency<S, St, R> {
    inner: S,
    store: St,
    resolver: R,
    settings: Arc<Settings>,
}

/// Body of the requests the inner service receives.
pub type InnerBody<B> = Either<Full<Bytes>, B>;

impl<S, St, R, B, ResB> tower::Service<Request<B>> for Idempotency<S, St, R>
where
    S: tower::Service<Request<InnerBody<B>>, Response = Response<ResB>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    St: Store,
    R: ScopeResolver,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
    ResB: Body<Data = Bytes> + Send + 'static,
    ResB::Error: Into<BoxError>,
{
    type Response = Response<Either<Full<Bytes>, ResB>>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        // The clone may not be ready; the instance that was polled ready is
        // the one that serves this request.
        let clone = self.inner.clone();
        let inner = std::mem::replace(&mut self.inner, clone);
        let flow = Flow {
            store: self.store.clone(),
            resolver: self.resolver.clone(),
            settings: Arc::clone(&self.settings),
        };
        Box::pin(flow.run(inner, req))
    }
}

struct Flow<St, R> {
    store: St,
    resolver: R,
    settings: Arc<Settings>,
}

/// How a request under a key is answered before (or instead of) running.
enum Start {
    Run(ClaimToken),
    Answer(Response<Full<Bytes>>),
}

fn problem(p: &Problem) -> Response<Full<Bytes>> {
    p.to_response().map(|s| Full::new(Bytes::from(s)))
}

fn left<ResB>(res: Response<Full<Bytes>>) -> Response<Either<Full<Bytes>, ResB>> {
    res.map(Either::Left)
}

/// Headers that describe one transfer, not the resource: never replayed.
fn replayable(name: &HeaderName) -> bool {
    !matches!(
        name.as_str(),
        "date" | "content-length" | "transfer-encoding" | "connection" | "keep-alive"
    )
}

fn stored(parts: &http::response::Parts, body: &Bytes) -> StoredResponse {
    StoredResponse {
        status: parts.status.as_u16(),
        headers: parts
            .headers
            .iter()
            .filter(|(name, _)| replayable(name))
            .map(|(name, value)| (name.as_str().to_owned(), value.as_bytes().to_vec()))
            .collect(),
        body: body.to_vec(),
    }
}

/// The stored response, marked as a replay. Headers that no longer parse
/// are dropped rather than failing the replay.
fn replay(r: StoredResponse) -> Response<Full<Bytes>> {
    let mut res = Response::new(Full::new(Bytes::from(r.body)));
    *res.status_mut() = StatusCode::from_u16(r.status).unwrap_or(StatusCode::OK);
    for (name, value) in r.headers {
        if let (Ok(n), Ok(v)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_bytes(&value),
        ) {
            res.headers_mut().append(n, v);
        }
    }
    res.headers_mut().insert(
        HeaderName::from_static(REPLAYED_HEADER),
        HeaderValue::from_static("true"),
    );
    res
}

/// The answer to an existing record.
fn answer(
    record: &Record,
    response: Option<StoredResponse>,
    fp: &Fingerprint,
    client_key: &str,
    lease: Duration,
) -> Response<Full<Bytes>> {
    match (
        decide_at(Some(record), fp, SystemTime::now(), lease),
        response,
    ) {
        (Decision::Replay, Some(r)) => replay(r),
        (Decision::Mismatch, _) => problem(&Problem::mismatch(client_key)),
        // In flight; also a record the store would not hand over (a stale
        // claim another request took over a moment ago): retry shortly.
        _ => problem(&Problem::in_progress(client_key)),
    }
}

impl<St: Store, R: ScopeResolver> Flow<St, R> {
    fn client_key(&self, parts: &Parts) -> Result<Option<IdempotencyKey>, Problem> {
        let lines: Vec<&[u8]> = parts
            .headers
            .get_all(IDEMPOTENCY_KEY_HEADER)
            .iter()
            .map(HeaderValue::as_bytes)
            .collect();
        if lines.is_empty() {
            return if self.settings.required {
                Err(Problem::missing_key())
            } else {
                Ok(None)
            };
        }
        let parsed = if self.settings.strict {
            IdempotencyKey::parse_lines(lines)
        } else {
            IdempotencyKey::parse_lines_lenient(lines)
        };
        parsed.map(Some).map_err(|e| Problem::from_header_error(&e))
    }

    fn key(&self, parts: &Parts, client_key: &str) -> Result<(ScopedKey, String), Problem> {
        let scope = self.resolver.resolve(parts)?;
        match scoped(&scope.tenant, &scope.principal, &scope.route, client_key) {
            Ok(key) => Ok((key, scope.route)),
            Err(
                e @ ScopeError::TooLong {
                    component: Component::Key,
                    ..
                },
            ) => Err(Problem::invalid_key(&e.to_string())),
            Err(e) => Err(Problem::unauthenticated(&e.to_string())),
        }
    }

    /// Claims the key; on a miss, looks for the request under the scopes
    /// the caller had before an identity move.
    async fn start(&self, key: &ScopedKey, fp: &Fingerprint, client_key: &str) -> Start {
        let lease = self.settings.lease;
        let token = match self.store.claim(key, fp, lease).await {
            Ok(Claimed::New(token)) => token,
            Ok(Claimed::Existing(record, response)) => {
                return Start::Answer(answer(&record, response, fp, client_key, lease))
            }
            Err(_) => return Start::Answer(problem(&Problem::store_unavailable())),
        };
        let Some(aliases) = &self.settings.aliases else {
            return Start::Run(token);
        };
        for (tenant, principal) in aliases.previous(key.tenant(), key.principal()) {
            let Ok(old) = scoped(&tenant, &principal, key.route(), key.key()) else {
                continue;
            };
            let found = self.store.lookup(&old).await;
            if found.is_err() {
                // Unknown whether the request already ran under the old
                // scope: running it now could run it twice.
                let _ = self.store.release(key, &token).await;
                return Start::Answer(problem(&Problem::store_unavailable()));
            }
            if let Ok(Some((record, response))) = found {
                // Written before the move: that record answers, and nothing
                // is written under the new scope.
                let _ = self.store.release(key, &token).await;
                return Start::Answer(answer(&record, response, fp, client_key, lease));
            }
        }
        Start::Run(token)
    }

    async fn run<S, B, ResB>(
        self,
        mut inner: S,
        req: Request<B>,
    ) -> Result<Response<Either<Full<Bytes>, ResB>>, S::Error>
    where
        S: tower::Service<Request<InnerBody<B>>, Response = Response<ResB>>,
        B: Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
        ResB: Body<Data = Bytes> + Send + 'static,
        ResB::Error: Into<BoxError>,
    {
        let (parts, body) = req.into_parts();
        let client_key = match self.client_key(&parts) {
            Ok(Some(k)) => k,
            Ok(None) => {
                let res = inner.call(Request::from_parts(parts, Either::Right(body)));
                return Ok(res.await?.map(Either::Right));
            }
            Err(p) => return Ok(left(problem(&p))),
        };
        let (key, route) = match self.key(&parts, client_key.as_str()) {
            Ok(k) => k,
            Err(p) => return Ok(left(problem(&p))),
        };
        let bytes = match Limited::new(body, self.settings.max_body).collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(e) if e.downcast_ref::<LengthLimitError>().is_some() => {
                return Ok(left(problem(&Problem::payload_too_large(
                    self.settings.max_body,
                ))))
            }
            Err(e) => {
                return Ok(left(problem(&Problem::invalid_key(&format!(
                    "the request body could not be read: {e}"
                )))))
            }
        };
        let fp = Fingerprint::of(&route, &bytes);
        let token = match self.start(&key, &fp, client_key.as_str()).await {
            Start::Run(token) => token,
            Start::Answer(res) => return Ok(left(res)),
        };

        // Drop cannot await: the release goes to a task. The runtime handle
        // is taken now so the guard may drop anywhere, even while unwinding
        // from a panic or when the client went away and this future is dropped.
        let guard = {
            let (store, key, token) = (self.store.clone(), key.clone(), token.clone());
            let rt = tokio::runtime::Handle::current();
            ClaimGuard::new(move || {
                rt.spawn(async move { store.release(&key, &token).await });
            })
        };
        let res = inner.call(Request::from_parts(parts, Either::Left(Full::new(bytes))));
        let res = res.await?;
        if res.status().is_server_error() {
            // The operation may be retried: drop the claim, pass the error on.
            return Ok(res.map(Either::Right));
        }
        let (head, body) = res.into_parts();
        let Ok(collected) = body.collect().await else {
            return Ok(left(problem(&Problem::response_failed())));
        };
        let body = collected.to_bytes();
        let record = stored(&head, &body);
        // Even if completing fails, the operation ran: keeping the claim until
        // the lease ends (409s) is safer than letting a retry run it again.
        let _ = self
            .store
            .complete(&key, &token, &record, self.settings.ttl)
            .await;
        guard.complete();
        Ok(Response::from_parts(head, Either::Left(Full::new(body))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfer_headers_are_not_replayed() {
        assert!(!replayable(&http::header::DATE));
        assert!(!replayable(&http::header::CONTENT_LENGTH));
        assert!(replayable(&http::header::CONTENT_TYPE));
        assert!(replayable(&http::header::LOCATION));
    }

    #[test]
    fn replay_restores_status_headers_and_marks_it() {
        let res = replay(StoredResponse {
            status: 201,
            headers: vec![("location".into(), b"/v1/charges/ch_1".to_vec())],
            body: b"{}".to_vec(),
        });
        assert_eq!(res.status(), 201);
        assert_eq!(res.headers()["location"], "/v1/charges/ch_1");
        assert_eq!(res.headers()[REPLAYED_HEADER], "true");
    }
}
