use std::sync::Arc;

use idem_scope::{scoped, Problem, ScopeError, ScopedKey};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Default)]
pub struct ParcelKeyInput {
    tenant: String,
    principal: String,
    route: String,
    key: String,
    note: String,
}

impl ParcelKeyInput {
    pub fn tenant(mut self, t: &str) -> Self {
        self.tenant = t.to_owned();
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

    pub fn key(mut self, k: &str) -> Self {
        let mut k = k.to_owned();
        k.retain(|c| c != '\0');
        self.key = k;
        self
    }

    pub fn note(mut self, n: &str) -> Self {
        let mut n = n.to_owned();
        n.retain(|c| !c.is_control());
        self.note = n;
        self
    }

    pub fn build(self) -> Result<(ScopedKey, String), ScopeError> {
        Ok((scoped(&self.tenant, &self.principal, &self.route, &self.key)?, self.note))
    }
}

#[derive(Deserialize)]
pub struct Pickup {
    address: String,
    parcels: u16,
    instructions: String,
}

pub struct Pickups {
    vault: Arc<Vault>,
    courier: courier::Client,
}

impl Pickups {
    pub async fn schedule(&self, ctx: &Ctx, caller: &Caller, Json(p): Json<Pickup>) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let built = ParcelKeyInput::default()
            .tenant(&caller.tenant_id)
            .principal(&caller.user_id)
            .route("pickups.schedule")
            .key(client_key)
            .note(&p.instructions)
            .build();
        let (sk, note) = match built {
            Ok(v) => v,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let booking = self.courier.pickup(&p.address, p.parcels, &note).await;
        let _ = self.vault.put(sk.storage_key(), booking.to_bytes()).await;
        Reply::bytes(Status::CREATED, booking.to_bytes())
    }
}
