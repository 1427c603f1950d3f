use ferrum::kv::SharedKv;
use idem_scope::{scoped, IdempotencyKey, Problem};
use keystone::Identity;
use relay::http::{Request, Response};

pub struct Scope {
    pub tenant: String,
    pub principal: String,
    pub route: String,
}

pub fn resolve_scope(ident: Option<&Identity>, route: &str) -> Result<Scope, Problem> {
    let tenant = ident.and_then(|i| i.tenant_id.clone()).unwrap_or_default();
    let principal = ident
        .map(|i| i.subject.clone())
        .ok_or_else(|| Problem::invalid_key("request is not authenticated"))?;
    Ok(Scope { tenant, principal, route: route.to_owned() })
}

fn parse_key(req: &Request) -> Result<IdempotencyKey, Problem> {
    let raw = req.header_bytes("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    IdempotencyKey::parse(raw).map_err(|e| Problem::invalid_key(&e.to_string()))
}

pub struct RenewHandler {
    replay: SharedKv,
    billing: billing::Client,
}

impl RenewHandler {
    pub async fn renew(&self, req: Request) -> Result<Response, Problem> {
        let scope = resolve_scope(req.extension::<Identity>(), "subscriptions.renew")?;
        let key = parse_key(&req)?;
        let sk = scoped(&scope.tenant, &scope.principal, &scope.route, key.as_str())
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;

        if let Ok(Some(saved)) = self.replay.get(sk.storage_key()).await {
            return Ok(Response::replayed(saved));
        }
        let renewed = self
            .billing
            .renew(&scope.tenant, &scope.principal)
            .await
            .map_err(|_| Problem::invalid_key("billing unavailable"))?;
        let body = serde_json::to_vec(&renewed).unwrap_or_default();
        let _ = self.replay.put(sk.storage_key(), &body).await;
        Ok(Response::ok(body))
    }
}
