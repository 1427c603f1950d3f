use std::time::Duration;

use idem_scope::{scoped, Problem, ScopedKey};
use moraine::auth::Caller;
use moraine::extract::Head;
use moraine::{Reply, Status};
use sextant::locker::Locker;

const UNIT_SEP: &str = "\u{1e}";

#[derive(Default)]
pub struct SlotBuilder {
    tenant_id: String,
    user_id: String,
    route: String,
    client_key: String,
}

impl SlotBuilder {
    pub fn tenant(mut self, v: &str) -> Self {
        self.tenant_id = v.to_owned();
        self
    }
    pub fn user(mut self, v: &str) -> Self {
        self.user_id = v.to_owned();
        self
    }
    pub fn route(mut self, v: &str) -> Self {
        self.route = v.to_owned();
        self
    }
    pub fn client(mut self, v: &str) -> Self {
        self.client_key = v.to_owned();
        self
    }
    pub fn build(self) -> String {
        [self.tenant_id, self.user_id, self.route, self.client_key].join(UNIT_SEP)
    }
    pub fn build_scoped(self) -> Result<ScopedKey, idem_scope::ScopeError> {
        scoped(&self.tenant_id, &self.user_id, &self.route, &self.client_key)
    }
}

pub async fn mandate_create(locker: &Locker, caller: &Caller, head: &Head, mandate: &[u8]) -> Reply {
    let Some(key) = head.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let slot = SlotBuilder::default().tenant(caller.tenant_id()).user(caller.user_id()).route("mandate_create").client(key).build();
    if let Ok(Some(prev)) = locker.get(&slot).await {
        return Reply::bytes(Status::OK, prev);
    }
    let _ = locker.put(&slot, mandate, Duration::from_secs(86_400)).await;
    Reply::status(Status::CREATED)
}

pub async fn mandate_revoke(locker: &Locker, caller: &Caller, head: &Head) -> Reply {
    let Some(key) = head.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let sk = match SlotBuilder::default().tenant(caller.tenant_id()).user(caller.user_id()).route("mandate_revoke").client(key).build_scoped() {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    let audit = format!("revoke {} by {}", sk.storage_key().len(), caller.user_id());
    tracing::info!(%audit);
    match locker.set_nx(sk.storage_key(), b"revoked", Duration::from_secs(86_400)).await {
        Ok(true) => Reply::status(Status::OK),
        Ok(false) => Reply::status(Status::CONFLICT),
        Err(_) => Reply::status(Status::SERVICE_UNAVAILABLE),
    }
}
