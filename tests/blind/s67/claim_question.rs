use dunlin::kv::Kv;
use idem_scope::{scoped, ClaimGuard, Problem};
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

type HandlerResult = Result<Reply, crate::errors::ApiError>;

pub async fn add_card(ctx: Ctx, caller: Caller, kv: &Kv) -> HandlerResult {
    let key = ctx.header("Idempotency-Key").ok_or_else(|| Problem::missing_key())?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "card.add", key)?;
    if !kv.claim(sk.storage_key()).await? {
        return Ok(Reply::problem(Problem::in_progress(key)));
    }
    let card = crate::cards::tokenize(&caller, ctx.body()).await?;
    let saved = crate::cards::attach(&caller, &card).await?;
    kv.complete(sk.storage_key(), saved.to_bytes()).await?;
    Ok(Reply::json(Status::CREATED, &saved))
}

pub async fn remove_card(ctx: Ctx, caller: Caller, kv: &Kv) -> HandlerResult {
    let key = ctx.header("Idempotency-Key").ok_or_else(|| Problem::missing_key())?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "card.remove", key)?;
    if !kv.claim(sk.storage_key()).await? {
        return Ok(Reply::problem(Problem::in_progress(key)));
    }
    let release_kv = kv.clone();
    let release_key = sk.storage_key().to_owned();
    let guard = ClaimGuard::new(move || release_kv.release_detached(release_key));
    let removed = crate::cards::detach(&caller, ctx.body()).await?;
    kv.complete(sk.storage_key(), removed.to_bytes()).await?;
    guard.complete();
    Ok(Reply::json(Status::OK, &removed))
}

/// Page sizes accepted by list endpoints of this module.
pub(crate) fn clamp_page_size(requested: Option<u32>) -> u32 {
    match requested {
        Some(0) => 1,
        Some(n) if n > 200 => 200,
        Some(n) => n,
        None => 50,
    }
}

#[cfg(test)]
mod paging_tests {
    use super::clamp_page_size;

    #[test]
    fn page_size_bounds() {
        assert_eq!(clamp_page_size(Some(0)), 1);
        assert_eq!(clamp_page_size(Some(500)), 200);
    }

    #[test]
    fn page_size_default() {
        assert_eq!(clamp_page_size(None), 50);
        assert_eq!(clamp_page_size(Some(20)), 20);
    }
}
