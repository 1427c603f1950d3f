use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use bmemcached::MemcachedClient;
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};
use vercel_runtime::{run, Body, Error, Request, Response, StatusCode};

#[derive(Deserialize)]
struct Claims {
    org_id: Option<String>,
    sub: String,
}

#[derive(Deserialize, Hash)]
struct FinalizeInvoice {
    invoice_id: String,
    send_email: bool,
}

#[derive(Serialize, Deserialize)]
struct Stored {
    fingerprint: String,
    status: u16,
    body: String,
}

fn problem(p: Problem) -> Result<Response<Body>, Error> {
    Ok(Response::builder()
        .status(p.status())
        .header("content-type", "application/problem+json")
        .body(Body::Text(p.to_json()))?)
}

pub async fn handler(req: Request) -> Result<Response<Body>, Error> {
    let claims: Claims = crate::auth::claims(&req)?;
    let Some(key) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
        return problem(Problem::missing_key());
    };
    let org = claims.org_id.as_deref().unwrap_or("global");
    let sk = match scoped(org, &claims.sub, "invoice.finalize", key) {
        Ok(sk) => sk,
        Err(e) => return problem(Problem::invalid_key(&e.to_string())),
    };
    let cache_slot = URL_SAFE_NO_PAD.encode(sk.storage_key());

    let body_bytes = req.body().to_vec();
    let fingerprint = sha256::digest(body_bytes.as_slice());

    let mc = MemcachedClient::new(vec!["memcached.internal:11211"], 4)?;
    if let Ok(prev) = mc.get::<&str, String>(&cache_slot) {
        let stored: Stored = serde_json::from_str(&prev)?;
        if stored.fingerprint != fingerprint {
            return problem(Problem::mismatch(key));
        }
        return Ok(Response::builder()
            .status(stored.status)
            .header("Idempotent-Replayed", "true")
            .body(Body::Text(stored.body))?);
    }

    let input: FinalizeInvoice = serde_json::from_slice(&body_bytes)?;
    let invoice = crate::billing::finalize(&input.invoice_id, input.send_email).await?;
    let out = serde_json::to_string(&invoice)?;
    let stored = Stored { fingerprint, status: 200, body: out.clone() };
    mc.set(&cache_slot, serde_json::to_string(&stored)?, 86_400)?;

    Ok(Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "application/json")
        .body(Body::Text(out))?)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    run(handler).await
}
