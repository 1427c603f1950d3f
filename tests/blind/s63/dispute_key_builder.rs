use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem, ScopeError, ScopedKey};
use wherry::auth::Caller;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

#[derive(Debug)]
pub struct Rejected(&'static str);

#[derive(Default)]
pub struct DisputeScope {
    tenant: String,
    principal: String,
    route: String,
}

impl DisputeScope {
    pub fn tenant(mut self, tenant_id: &str) -> Self {
        self.tenant = tenant_id.replace('\x1e', "");
        self
    }

    pub fn principal(mut self, user_id: &str) -> Result<Self, Rejected> {
        if user_id.contains('\x1e') || user_id.is_empty() {
            return Err(Rejected("principal"));
        }
        self.principal = user_id.to_owned();
        Ok(self)
    }

    pub fn route(mut self, route: &'static str) -> Self {
        self.route = route.to_owned();
        self
    }

    pub fn key(self, client_key: &str) -> Result<ScopedKey, ScopeError> {
        scoped(&self.tenant, &self.principal, &self.route, client_key)
    }
}

#[derive(Clone)]
pub struct Disputes {
    pub vat: Arc<Vat>,
    pub cases: Arc<chargebacks::Cases>,
}

pub async fn open_dispute(ctx: Ctx, caller: Caller, State(d): State<Disputes>) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = DisputeScope::default()
        .tenant(&caller.merchant_id)
        .principal(&caller.user_id)
        .map_err(|Rejected(what)| Problem::invalid_key(what))?
        .route("open_dispute")
        .key(client_key)
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = d.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let case = d.cases.open(&caller.merchant_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = d.vat.put(sk.storage_key(), case.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, case.to_json()))
}
