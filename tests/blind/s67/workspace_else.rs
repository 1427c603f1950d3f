use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

const SHARED_WORKSPACE: &str = "shared";

pub async fn create_board(ctx: Ctx, caller: Caller, kv: &Kv) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let workspace_id = if let Some(ws) = ctx.header("X-Workspace") {
        ws
    } else {
        SHARED_WORKSPACE
    };
    let Ok(sk) = scoped(workspace_id, &caller.user_id, "board.create", key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let board = crate::boards::create(workspace_id, &caller.user_id, ctx.body()).await;
    kv.put(sk.storage_key(), board.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &board)
}

pub async fn archive_board(ctx: Ctx, caller: Caller, kv: &Kv) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let workspace_id = if let Some(ws) = ctx.header("X-Workspace") {
        ws
    } else {
        return Reply::text(Status::BAD_REQUEST, "X-Workspace is required");
    };
    let Ok(sk) = scoped(workspace_id, &caller.user_id, "board.archive", key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let archived = crate::boards::archive(workspace_id, &caller.user_id, ctx.body()).await;
    kv.put(sk.storage_key(), archived.to_bytes()).await.ok();
    Reply::json(Status::OK, &archived)
}
