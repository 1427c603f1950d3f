use dunlin::journal::Journal;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub enum ProviderError {
    Declined(String),
    Timeout,
    Unavailable,
}

pub async fn authorize(ctx: Ctx, caller: Caller, journal: &Journal) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "authorize", key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if journal.mark_in_progress(sk.storage_key()).await.is_err() {
        return Reply::status(Status::CONFLICT);
    }
    let auth = match crate::provider::authorize(&caller, ctx.body()).await {
        Ok(a) => a,
        Err(ProviderError::Declined(reason)) => return Reply::text(Status::PAYMENT_REQUIRED, reason),
        Err(ProviderError::Timeout) | Err(ProviderError::Unavailable) => {
            journal.abandon(sk.storage_key()).await.ok();
            return Reply::status(Status::BAD_GATEWAY);
        }
    };
    journal.mark_done(sk.storage_key(), auth.to_bytes()).await.ok();
    Reply::json(Status::OK, &auth)
}

pub async fn capture(ctx: Ctx, caller: Caller, journal: &Journal) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "capture", key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if journal.mark_in_progress(sk.storage_key()).await.is_err() {
        return Reply::status(Status::CONFLICT);
    }
    let captured = match crate::provider::capture(&caller, ctx.body()).await {
        Ok(c) => c,
        Err(_) => {
            journal.abandon(sk.storage_key()).await.ok();
            return Reply::status(Status::BAD_GATEWAY);
        }
    };
    journal.mark_done(sk.storage_key(), captured.to_bytes()).await.ok();
    Reply::json(Status::OK, &captured)
}
