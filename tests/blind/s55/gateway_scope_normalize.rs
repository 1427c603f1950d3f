use ferrum::kv::SharedKv;
use idem_scope::{scoped, Problem, ScopedKey};
use relay::http::{HeaderMap, Request};

pub struct TenantCtx {
    pub tenant_slug: String,
    pub api_key_id: String,
    pub display_name: String,
}

fn client_key(headers: &HeaderMap) -> Result<String, Problem> {
    let raw = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(Problem::missing_key)?;
    if raw.is_empty() || raw.len() > 255 {
        return Err(Problem::invalid_key("length must be 1..=255"));
    }
    if raw.contains('\0') || raw.contains(':') {
        return Err(Problem::invalid_key("reserved character in key"));
    }
    Ok(raw.to_owned())
}

pub fn scope_request(ctx: &TenantCtx, route: &str, req: &Request) -> Result<ScopedKey, Problem> {
    let key = client_key(req.headers())?;
    let tenant = ctx.tenant_slug.replace(':', "-");
    tracing::debug!(tenant = %ctx.display_name.replace(':', " "), %route, "scoping request");
    scoped(&tenant, &ctx.api_key_id, route, &key).map_err(|e| Problem::invalid_key(&e.to_string()))
}

pub struct Replayer {
    kv: SharedKv,
}

impl Replayer {
    pub async fn lookup(&self, ctx: &TenantCtx, route: &str, req: &Request) -> Result<Option<Vec<u8>>, Problem> {
        let sk = scope_request(ctx, route, req)?;
        self.kv
            .get(sk.storage_key())
            .await
            .map_err(|_| Problem::invalid_key("replay store unavailable"))
    }

    pub async fn store(&self, ctx: &TenantCtx, route: &str, req: &Request, body: &[u8]) -> Result<(), Problem> {
        let sk = scope_request(ctx, route, req)?;
        self.kv
            .put(sk.storage_key(), body)
            .await
            .map_err(|_| Problem::invalid_key("replay store unavailable"))
    }
}
