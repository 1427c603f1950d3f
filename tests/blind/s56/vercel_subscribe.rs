use redis_async::client::{paired_connect, PairedConnection};
use redis_async::resp_array;
use serde::Serialize;
use vercel_runtime::{run, Body, Error, Request, Response, StatusCode};

#[derive(Serialize)]
struct AttemptStatus {
    state: &'static str,
    subscription: Option<serde_json::Value>,
}

#[derive(Clone)]
struct SessionClaims {
    org_id: String,
    sub: String,
    email: Option<String>,
}

struct ResultsCache {
    conn: PairedConnection,
}

impl ResultsCache {
    async fn connect() -> Result<Self, Error> {
        let host = std::env::var("RESULTS_REDIS_HOST")?;
        Ok(Self { conn: paired_connect(host, 6379).await? })
    }

    async fn get(&self, slot: &str) -> Result<Option<String>, Error> {
        Ok(self.conn.send(resp_array!["GET", slot]).await?)
    }
}

static SESSIONS: once_cell::sync::Lazy<crate::auth::SessionCache> = once_cell::sync::Lazy::new(crate::auth::SessionCache::default);

fn session_claims(req: &Request) -> Result<SessionClaims, Error> {
    let token = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or("missing bearer token")?;
    if let Some(claims) = SESSIONS.get(&sha256::digest(token)) {
        return Ok(claims);
    }
    let claims = crate::auth::verify(token)?;
    SESSIONS.insert(sha256::digest(token), claims.clone());
    Ok(claims)
}

/// Lets the dashboard poll the outcome of a subscribe call that the billing
/// worker finishes asynchronously.
pub async fn handler(req: Request) -> Result<Response<Body>, Error> {
    let claims = session_claims(&req)?;
    let key = match req.headers().get("idempotency-key").and_then(|v| v.to_str().ok()) {
        Some(k) => k.to_owned(),
        None => {
            return Ok(Response::builder()
                .status(StatusCode::BAD_REQUEST)
                .body(Body::Text("Idempotency-Key header is required".into()))?)
        }
    };
    let notify_to = claims.email.clone().unwrap_or_default();
    log::debug!("status poll org={} sub={} notify={}", claims.org_id, claims.sub, notify_to);

    let results = ResultsCache::connect().await?;
    let status = match results.get(&key).await? {
        Some(json) => AttemptStatus { state: "done", subscription: Some(serde_json::from_str(&json)?) },
        None => AttemptStatus { state: "pending", subscription: None },
    };
    Ok(Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "application/json")
        .body(Body::Text(serde_json::to_string(&status)?))?)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    run(handler).await
}
