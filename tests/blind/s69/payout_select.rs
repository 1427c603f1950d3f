//! Site hosts request an early payout of their charging revenue. The PSP
//! call races a shutdown signal.

use std::time::Duration;

use garner::bin::Bin;
use idem_scope::{scoped, Problem};
use tokio::sync::watch;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

async fn payout(cx: &Cx, who: &Identity, bin: &Bin, mut shutdown: watch::Receiver<bool>) -> Result<Vec<u8>, Problem> {
    let key = cx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&who.org_id, &who.user_id, "/v1/hosts/payouts", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if !bin.claim(sk.storage_key(), Duration::from_secs(300)).await.unwrap_or(false) {
        return Err(Problem::in_progress(key));
    }
    let receipt = tokio::select! {
        r = crate::psp::payout(&who.org_id, cx.body_bytes()) => r.map_err(|e| Problem::invalid_key(&e.to_string()))?,
        _ = shutdown.changed() => {
            let _ = bin.release(sk.storage_key()).await;
            return Err(Problem::in_progress(key));
        }
    };
    let _ = bin.complete(sk.storage_key(), &receipt).await;
    Ok(receipt)
}

pub async fn handler(cx: Cx, who: Identity, bin: &Bin, shutdown: watch::Receiver<bool>) -> Reply {
    match payout(&cx, &who, bin, shutdown).await {
        Ok(r) => Reply::bytes(Code::OK, r),
        Err(p) => Reply::problem(p),
    }
}

pub async fn payout_summary(who: &Identity, stats: &tokio::sync::Mutex<Vec<u64>>) -> u64 {
    let guard = stats.lock().await;
    let total = guard.iter().sum::<u64>();
    drop(guard);
    tracing::debug!(org = %who.org_id, total, "payout summary");
    total
}
