use dunlin::kv::Kv;
use idem_scope::{scoped, Problem};
use plover::auth::{Caller, MaybeCaller};
use plover::{Ctx, Reply, Status};

pub async fn create_refund(ctx: Ctx, caller: MaybeCaller, kv: &Kv) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let tenant = match caller.tenant_id() {
        Some(t) => t,
        None => return Reply::status(Status::UNAUTHORIZED),
    };
    let sk = match scoped(tenant, "", "refund", key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let refund = crate::refunds::create(tenant, ctx.body()).await;
    kv.put(sk.storage_key(), refund.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &refund)
}

pub async fn void_refund(ctx: Ctx, caller: Caller, kv: &Kv) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "default", key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let voided = crate::refunds::void(&caller, ctx.body()).await;
    kv.put(sk.storage_key(), voided.to_bytes()).await.ok();
    Reply::json(Status::OK, &voided)
}
