use std::panic::AssertUnwindSafe;
use std::time::Duration;

use futures_util::FutureExt;
use idem_scope::{scoped, ClaimGuard, Claimed, Fingerprint, Problem, ScopedKey, Store, StoredResponse};

use crate::loads::{LoadBoard, Tender};

const LEASE: Duration = Duration::from_secs(120);
const TTL: Duration = Duration::from_secs(86_400);

fn stored(body: Vec<u8>) -> StoredResponse {
    StoredResponse { status: 200, headers: Vec::new(), body }
}

pub fn scope_key(headers: &http::HeaderMap, tenant_id: &str, user_id: &str, route: &str) -> Result<ScopedKey, Problem> {
    let raw = headers.get("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_str().map_err(|_| Problem::invalid_key("not ASCII"))?;
    if raw.contains('\0') || raw.contains('\u{1e}') {
        return Err(Problem::invalid_key("separator characters are not allowed"));
    }
    scoped(tenant_id, user_id, route, raw.trim()).map_err(|e| Problem::invalid_key(&e.to_string()))
}

pub async fn accept_tender<S: Store>(store: &S, board: &LoadBoard, key: ScopedKey, fp: Fingerprint, tender: Tender) -> anyhow::Result<Vec<u8>> {
    match store.claim(&key, &fp, LEASE).await? {
        Claimed::New => {}
        Claimed::Existing(_, Some(resp)) => return Ok(resp.body),
        Claimed::Existing(_, None) => anyhow::bail!("tender acceptance still in progress"),
    }
    let releaser = store.clone();
    let release_key = key.clone();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = releaser.release(&release_key).await;
        });
    });
    let accepted = board.accept(&tender).await?;
    let body = serde_json::to_vec(&accepted)?;
    store.complete(&key, &stored(body.clone()), TTL).await?;
    guard.complete();
    Ok(body)
}

pub async fn withdraw_tender<S: Store>(store: &S, board: &LoadBoard, key: ScopedKey, fp: Fingerprint, load_id: &str) -> anyhow::Result<()> {
    store.claim(&key, &fp, LEASE).await?;
    match board.withdraw(load_id).await {
        Ok(receipt) => {
            store.complete(&key, &stored(serde_json::to_vec(&receipt).unwrap_or_default()), TTL).await?;
            Ok(())
        }
        Err(e) => {
            store.release(&key).await?;
            Err(e.into())
        }
    }
}

pub async fn counter_offer<S: Store>(store: &S, board: &LoadBoard, key: ScopedKey, fp: Fingerprint, cents: i64) -> anyhow::Result<()> {
    store.claim(&key, &fp, LEASE).await?;
    let outcome = AssertUnwindSafe(board.counter(cents)).catch_unwind().await;
    let receipt = match outcome {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            store.release(&key).await?;
            return Err(e.into());
        }
        Err(panic) => {
            let _ = store.release(&key).await;
            std::panic::resume_unwind(panic);
        }
    };
    store.complete(&key, &stored(receipt.into_bytes()), TTL).await?;
    Ok(())
}

pub async fn hold_capacity<S: Store>(store: &S, board: &LoadBoard, key: ScopedKey, fp: Fingerprint, lane: &str) -> Result<(), Problem> {
    let Ok(Claimed::New) = store.claim(&key, &fp, LEASE).await else {
        return Err(Problem::in_progress(lane));
    };
    let held = board.hold(lane).await;
    let body = held.map(|h| h.into_bytes()).unwrap_or_default();
    let _ = store.complete(&key, &stored(body), TTL).await;
    Ok(())
}

pub async fn dispatch_load(board: &LoadBoard, load_id: &str, driver_id: &str) -> anyhow::Result<()> {
    let lease = board.claim(load_id, driver_id).await?;
    let route = board.plan_route(load_id).await?;
    board.dispatch(load_id, &route).await?;
    lease.complete().await?;
    Ok(())
}

pub async fn nightly_rollup(pool: &sqlx::PgPool, locks: &crate::locks::JobLocks) -> anyhow::Result<()> {
    let lock = locks.acquire("nightly-rollup", Duration::from_secs(900)).await?;
    let mut tx = pool.begin().await?;
    sqlx::query("INSERT INTO daily_volume SELECT date_trunc('day', created_at), tenant_id, count(*) FROM shipments GROUP BY 1, 2 ON CONFLICT DO NOTHING")
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM shipment_staging WHERE created_at < now() - interval '7 days'").execute(&mut *tx).await?;
    tx.commit().await?;
    locks.finish(lock).await?;
    Ok(())
}
