use dunlin::kv::Kv;
use dunlin::lease::Leases;
use idem_scope::{scoped, ClaimGuard};
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub async fn reindex_catalog(leases: &Leases, catalog_id: &str) -> Result<usize, dunlin::Error> {
    let lock = leases.try_acquire(&format!("catalog-reindex/{}", catalog_id), 120).await?;
    let items = crate::catalog::load(catalog_id).await?;
    let n = crate::catalog::reindex(&items).await?;
    leases.release(lock).await?;
    Ok(n)
}

pub async fn publish_catalog(ctx: Ctx, caller: Caller, kv: &Kv) -> Result<Reply, crate::errors::ApiError> {
    let key = ctx.header("Idempotency-Key").ok_or(crate::errors::ApiError::MissingKey)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "catalog.publish", key)?;
    if !kv.claim(sk.storage_key()).await? {
        return Ok(Reply::status(Status::CONFLICT));
    }
    let kv_release = kv.clone();
    let slot = sk.storage_key().to_owned();
    let guard = ClaimGuard::new(move || kv_release.release_blocking(&slot));
    let snapshot = crate::catalog::snapshot(&caller).await?;
    let published = crate::catalog::publish(&caller, snapshot).await?;
    kv.complete(sk.storage_key(), published.to_bytes()).await?;
    guard.complete();
    Ok(Reply::json(Status::OK, &published))
}

pub async fn archive_catalog(ctx: Ctx, caller: Caller, kv: &Kv) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else { return Reply::status(Status::BAD_REQUEST) };
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "catalog.archive", key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if !kv.claim(sk.storage_key()).await.unwrap_or(false) {
        return Reply::status(Status::CONFLICT);
    }
    let outcome = async { crate::catalog::archive(&caller).await?.finalize().await }.await;
    match outcome {
        Ok(done) => {
            kv.complete(sk.storage_key(), done.to_bytes()).await.ok();
            Reply::json(Status::OK, &done)
        }
        Err(e) => {
            kv.release(sk.storage_key()).await.ok();
            Reply::text(Status::BAD_GATEWAY, e.to_string())
        }
    }
}
