use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::{ApiKey, MaybeSession};
use plover::{Ctx, Reply, Status};

pub async fn create_note(ctx: Ctx, session: MaybeSession, kv: &Kv) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let Some(tenant_id) = session.tenant_id() else {
        return Reply::status(Status::UNAUTHORIZED);
    };
    let user_id = session.user_id().map(|u| u.to_string()).unwrap_or_else(|| "anonymous".to_owned());
    let Ok(sk) = scoped(tenant_id, &user_id, "note.create", key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let title = ctx.query("title").map(str::to_owned).unwrap_or_else(|| "Untitled".to_owned());
    let note = crate::notes::create(tenant_id, &user_id, &title, ctx.body()).await;
    kv.put(sk.storage_key(), note.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &note)
}

pub async fn create_tag(ctx: Ctx, session: MaybeSession, api_key: ApiKey, kv: &Kv) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let tenant_id = api_key.tenant_id.clone();
    let user_id = session.user_id().map(|u| u.to_string()).unwrap_or_else(|| api_key.api_key_id.clone());
    let Ok(sk) = scoped(&tenant_id, &user_id, "tag.create", key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let tag = crate::notes::tag(&tenant_id, &user_id, ctx.body()).await;
    kv.put(sk.storage_key(), tag.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &tag)
}
