use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::{Ctx, Reply, Status};

#[derive(Default)]
pub struct ListOptions {
    pub limit: u32,
    pub cursor: Option<String>,
}

pub struct ServiceToken {
    pub project_id: String,
    pub actor: Option<String>,
}

pub async fn rotate_secret(ctx: Ctx, token: ServiceToken, kv: &Kv) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let actor: String = match token.actor {
        Some(a) => a,
        None => Default::default(),
    };
    let Ok(sk) = scoped(&token.project_id, &actor, "secret.rotate", key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let rotated = crate::secrets::rotate(&token.project_id, &actor).await;
    kv.put(sk.storage_key(), rotated.to_bytes()).await.ok();
    Reply::json(Status::OK, &rotated)
}

pub async fn list_secrets(ctx: Ctx, token: ServiceToken) -> Reply {
    let mut opts: ListOptions = Default::default();
    opts.limit = ctx.query("limit").and_then(|l| l.parse().ok()).unwrap_or(50);
    let page = crate::secrets::list(&token.project_id, &opts).await;
    Reply::json(Status::OK, &page)
}
