use idem_scope::{scoped, Problem};
use serde::Deserialize;
use tamarind::extract::FromRequest;
use tamarind::{Reply, Req};
use whirlwind::ShardMap;

pub trait ReplayRepo: Send + Sync {
    async fn load(&self, key: &[u8]) -> Option<Vec<u8>>;
    async fn save(&self, key: &[u8], response: Vec<u8>);
}

pub struct ShardRepo {
    map: ShardMap<Vec<u8>, Vec<u8>>,
}

impl ReplayRepo for ShardRepo {
    async fn load(&self, key: &[u8]) -> Option<Vec<u8>> {
        self.map.get(&key.to_vec()).await.map(|v| v.clone())
    }

    async fn save(&self, key: &[u8], response: Vec<u8>) {
        self.map.insert(key.to_vec(), response).await;
    }
}

pub struct TenantCtx {
    pub tenant_id: String,
    pub user_id: String,
}

impl FromRequest for TenantCtx {
    fn from_request(req: &Req) -> Result<Self, Reply> {
        let tenant_id = req.header("x-tenant-id").map(str::to_owned).unwrap_or_default();
        let user_id = req
            .header("x-user-id")
            .map(str::to_owned)
            .ok_or_else(|| Reply::status(401))?;
        Ok(TenantCtx { tenant_id, user_id })
    }
}

#[derive(Deserialize)]
struct RegisterEndpoint {
    url: String,
    events: Vec<String>,
}

pub async fn register_endpoint<R: ReplayRepo>(repo: &R, req: Req, ctx: TenantCtx) -> Result<Reply, Reply> {
    let client_key = req
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let key = scoped(&ctx.tenant_id, &ctx.user_id, "webhook_endpoints.create", client_key)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    if let Some(prev) = repo.load(key.storage_key().as_bytes()).await {
        return Ok(Reply::raw(200, prev));
    }
    let body: RegisterEndpoint = req.json()?;
    let created = serde_json::to_vec(&serde_json::json!({
        "url": body.url,
        "events": body.events,
        "secret_hint": "whsec_…",
    }))
    .map_err(Reply::internal)?;
    repo.save(key.storage_key().as_bytes(), created.clone()).await;
    Ok(Reply::raw(201, created))
}
