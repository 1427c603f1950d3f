use dunlin::kv::Kv;
use idem_scope::{scoped, ScopeError, ScopedKey};
use plover::{Ctx, Reply, Status};

#[derive(Default)]
pub struct ScopeDraft {
    tenant: String,
    principal: String,
    route: String,
}

impl ScopeDraft {
    pub fn tenant(mut self, t: &str) -> Self {
        self.tenant = t.replace(':', "_");
        self
    }

    pub fn principal(mut self, p: &str) -> Self {
        self.principal = p.to_owned();
        self
    }

    pub fn route(mut self, r: &str) -> Self {
        self.route = r.to_owned();
        self
    }

    pub fn key(self, k: &str) -> Result<ScopedKey, ScopeError> {
        scoped(&self.tenant, &self.principal, &self.route, k)
    }
}

pub async fn create_webhook_endpoint(ctx: Ctx, kv: &Kv) -> Reply {
    let (Some(key), Some(tenant), Some(user)) =
        (ctx.header("Idempotency-Key"), ctx.header("X-Tenant"), ctx.header("X-User"))
    else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let draft = ScopeDraft::default().tenant(tenant).principal(user).route("endpoint.create");
    let Ok(sk) = draft.key(key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let endpoint = crate::webhooks::create_endpoint(tenant, user, ctx.body()).await;
    kv.put(sk.storage_key(), endpoint.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &endpoint)
}
