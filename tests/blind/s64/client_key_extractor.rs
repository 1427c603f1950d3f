use idem_scope::{scoped, IdempotencyKey, Problem};
use moraine::auth::Caller;
use moraine::extract::{FromHead, Head};
use moraine::{Ctx, Reply, Status};
use sextant::locker::Locker;

pub const HDR_IDEMPOTENCY: &str = "Idempotency-Key";

/// Parsed `Idempotency-Key` header of the incoming request.
pub struct ClientKey(pub String);

impl FromHead for ClientKey {
    type Rejection = Reply;

    fn from_head(head: &Head) -> Result<Self, Self::Rejection> {
        let raw = head
            .header(HDR_IDEMPOTENCY)
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let parsed = IdempotencyKey::parse_lenient(raw.as_bytes())
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        Ok(ClientKey(parsed.as_str().to_owned()))
    }
}

pub struct TransferState {
    pub locker: Locker,
}

pub async fn replay_transfer(ctx: Ctx<TransferState>, caller: Caller, key: ClientKey) -> Reply {
    let sk = match scoped(caller.tenant_id(), caller.user_id(), "transfer", &key.0) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    match ctx.state.locker.get(sk.storage_key()).await {
        Ok(Some(bytes)) => Reply::bytes(Status::OK, bytes).header("Idempotent-Replayed", "true"),
        Ok(None) => Reply::status(Status::NOT_FOUND),
        Err(_) => Reply::status(Status::SERVICE_UNAVAILABLE),
    }
}

pub async fn transfer_status(ctx: Ctx<TransferState>, _caller: Caller, key: ClientKey) -> Reply {
    let cached = ctx.state.locker.get(&key.0).await;
    match cached {
        Ok(Some(bytes)) => Reply::bytes(Status::OK, bytes),
        Ok(None) => Reply::status(Status::NOT_FOUND),
        Err(_) => Reply::status(Status::SERVICE_UNAVAILABLE),
    }
}
