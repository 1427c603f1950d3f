use std::sync::Arc;
use std::time::Duration;

use cobble::vault::Vault;
use idem_scope::{scoped, ClaimGuard, Problem};
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

use crate::plans::{PlanChange, Plans};

pub async fn change_plan(
    ex: Exchange,
    caller: Caller,
    Json(change): Json<PlanChange>,
    vault: Arc<Vault>,
    plans: &Plans,
) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "plan.change", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    let key = sk.storage_key().to_owned();

    vault.claim(&key, Duration::from_secs(120)).await.map_err(unavailable)?;
    let v = vault.clone();
    let k = key.clone();
    let guard = ClaimGuard::new(move || {
        let _ = v.release_blocking(&k);
    });

    let quote = plans.quote(&caller.tenant_id, &change).await.map_err(unavailable)?;
    let applied = plans.apply(&caller.tenant_id, quote).await.map_err(unavailable)?;

    let reply = Reply::json(Status::Ok, &applied);
    vault.complete(&key, &reply.snapshot()).await.map_err(unavailable)?;
    guard.complete();
    Ok(reply)
}

pub async fn cancel_plan(ex: Exchange, caller: Caller, vault: Arc<Vault>, plans: &Plans) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "plan.cancel", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

    vault.claim(sk.storage_key(), Duration::from_secs(60)).await.map_err(unavailable)?;
    let cancelled = match plans.cancel(&caller.tenant_id).await {
        Ok(c) => c,
        Err(e) => {
            let _ = vault.release(sk.storage_key()).await;
            return Err(unavailable(e));
        }
    };
    let reply = Reply::json(Status::Ok, &cancelled);
    if let Err(e) = vault.complete(sk.storage_key(), &reply.snapshot()).await {
        let _ = vault.release(sk.storage_key()).await;
        return Err(unavailable(e));
    }
    Ok(reply)
}

fn unavailable<E: std::fmt::Debug>(e: E) -> Reply {
    log::warn!("plan change failed: {e:?}");
    Reply::status(Status::ServiceUnavailable)
}
