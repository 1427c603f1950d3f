//! Reservation cancellation on the tako HTTP stack.
use coffer::drawer::Drawer;
use idem_scope::{scoped, Fingerprint, Problem};
use tako::extractors::{header_map::HeaderMap, bytes::Bytes, state::State};
use tako::responder::Responder;
use tako::types::Response;

use crate::auth::Caller;

pub async fn cancel(State(store): State<Drawer>, caller: Caller, headers: HeaderMap, Bytes(raw): Bytes) -> impl Responder {
    let Some(key) = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
        return Response::problem(Problem::missing_key());
    };
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "reservation.cancel", key) else {
        return Response::problem(Problem::invalid_key("separator"));
    };
    let fp = Fingerprint::of("reservation.cancel", &raw);
    match run(&store, &sk, &fp, &raw).await {
        Ok(body) => Response::ok(body),
        Err(e) => Response::error(e),
    }
}

async fn run(store: &Drawer, sk: &idem_scope::ScopedKey, fp: &Fingerprint, raw: &[u8]) -> anyhow::Result<Vec<u8>> {
    store.claim(sk.storage_key(), fp).await?;
    let cancellation = crate::pms::cancel(raw).await?;
    let body = serde_json::to_vec(&cancellation)?;
    store.complete(sk.storage_key(), &body).await?;
    Ok(body)
}

pub async fn cancel_quietly(store: &Drawer, sk: &idem_scope::ScopedKey, fp: &Fingerprint, raw: &[u8]) -> anyhow::Result<Vec<u8>> {
    store.claim(sk.storage_key(), fp).await?;
    let cancellation = match crate::pms::cancel(raw).await {
        Ok(c) => c,
        Err(e) => {
            store.release(sk.storage_key()).await.ok();
            return Err(e.into());
        }
    };
    let body = serde_json::to_vec(&cancellation).unwrap_or_default();
    store.complete(sk.storage_key(), &body).await?;
    Ok(body)
}

pub async fn cancel_throttled(sem: &tokio::sync::Semaphore, raw: &[u8]) -> anyhow::Result<Vec<u8>> {
    let _permit = sem.acquire().await?;
    let cancellation = crate::pms::cancel(raw).await?;
    Ok(serde_json::to_vec(&cancellation)?)
}
