//! POST /v1/sessions/{id}/stop — stops a charging session and returns the
//! final receipt.

use std::time::Duration;

use garner::bin::Bin;
use idem_scope::{scoped, ClaimGuard, Problem};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

const LEASE: Duration = Duration::from_secs(120);

#[derive(serde::Serialize)]
struct Receipt {
    session: String,
    kwh: f64,
    total_cents: i64,
}

async fn stop_inner(cx: &Cx, who: &Identity, bin: &Bin) -> Result<Reply, Problem> {
    let key = cx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let session = cx.param("id").ok_or_else(|| Problem::invalid_key("missing session"))?;
    let sk = scoped(&who.org_id, &who.user_id, "/v1/sessions/stop", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if !bin.claim(sk.storage_key(), LEASE).await.map_err(|_| Problem::in_progress(key))? {
        return Err(Problem::in_progress(key));
    }
    let meter = crate::sessions::stop(&session).await;
    let receipt = Receipt { session: session.clone(), kwh: meter.kwh, total_cents: meter.total_cents };
    let body = serde_json::to_vec(&receipt).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = bin.complete(sk.storage_key(), &body).await;
    Ok(Reply::bytes(Code::OK, body))
}

pub async fn stop(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    stop_inner(&cx, &who, bin).await.unwrap_or_else(Reply::problem)
}

pub async fn pause(cx: Cx, who: Identity, bin: Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/sessions/pause", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let storage_key = sk.storage_key().to_owned();
    if !bin.claim(&storage_key, LEASE).await.unwrap_or(false) {
        return Reply::status(Code::CONFLICT);
    }
    let guard = ClaimGuard::new({
        let (bin, k) = (bin.clone(), storage_key.clone());
        move || {
            tokio::spawn(async move {
                let _ = bin.release(&k).await;
            });
        }
    });
    let session = cx.param("id").unwrap_or_default();
    let paused = crate::sessions::pause(&session).await.map_err(|_| Code::BAD_GATEWAY);
    let paused = match paused {
        Ok(p) => p,
        Err(code) => return Reply::status(code),
    };
    let _ = bin.complete(&storage_key, paused.as_bytes()).await;
    guard.complete();
    Reply::text(Code::OK, paused)
}
