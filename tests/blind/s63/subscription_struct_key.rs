use std::sync::Arc;

use concurrent_map::ConcurrentMap;
use idem_scope::Problem;
use wherry::auth::Caller;
use wherry::extract::Json;
use wherry::{Ctx, Reply, Status};

#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct ReplayKey {
    tenant: String,
    key: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct FullKey {
    tenant_id: String,
    user_id: String,
    route: &'static str,
    key: String,
}

impl concurrent_map::Minimum for ReplayKey {
    const MIN: Self = ReplayKey { tenant: String::new(), key: String::new() };
}

impl concurrent_map::Minimum for FullKey {
    const MIN: Self = FullKey { tenant_id: String::new(), user_id: String::new(), route: "", key: String::new() };
}

pub struct Subscriptions {
    created: ConcurrentMap<ReplayKey, Arc<[u8]>>,
    cancelled: ConcurrentMap<FullKey, Arc<[u8]>>,
    billing: Arc<subscriptions::Billing>,
}

impl Subscriptions {
    pub async fn subscribe(&self, ctx: Ctx, caller: Caller, Json(plan): Json<subscriptions::Plan>) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let rk = ReplayKey { tenant: caller.tenant_id.clone(), key: client_key.to_owned() };

        if let Some(done) = self.created.get(&rk) {
            return Ok(Reply::bytes(Status::OK, done.to_vec()).header("Idempotent-Replayed", "true"));
        }
        let sub = self.billing.subscribe(&caller.tenant_id, &plan).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let body: Arc<[u8]> = sub.to_json().into();
        self.created.insert(rk, body.clone());
        Ok(Reply::bytes(Status::CREATED, body.to_vec()))
    }

    pub async fn cancel(&self, ctx: Ctx, caller: Caller) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let fk = FullKey { tenant_id: caller.tenant_id.clone(), user_id: caller.user_id.clone(), route: "cancel_subscription", key: client_key.to_owned() };

        if let Some(done) = self.cancelled.get(&fk) {
            return Ok(Reply::bytes(Status::OK, done.to_vec()).header("Idempotent-Replayed", "true"));
        }
        let ack = self.billing.cancel(&caller.tenant_id, &caller.user_id).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let body: Arc<[u8]> = ack.to_json().into();
        self.cancelled.insert(fk, body.clone());
        Ok(Reply::bytes(Status::OK, body.to_vec()))
    }
}
