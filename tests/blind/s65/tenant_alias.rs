use std::sync::Arc;

use idem_scope::{scoped, Problem, ScopeError};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::tenancy::{AliasTable, Order, OrderBook};

pub struct OrderApi {
    kv: Arc<Kv>,
    aliases: Arc<AliasTable>,
    book: Arc<OrderBook>,
}

impl OrderApi {
    /// Tenants migrated from the old platform still send ids like `eu:acme`.
    fn canonical_tenant(&self, raw: &str) -> String {
        let legacy = raw.replace(':', "");
        self.aliases.resolve(&legacy).unwrap_or(legacy)
    }

    pub async fn place(&self, ex: &Exchange) -> Outcome {
        let Some(who) = ex.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let tenant_id = self.canonical_tenant(&who.tenant_id);
        let Some(retry) = ex.header("Idempotency-Key") else {
            return Outcome::problem(Problem::missing_key());
        };
        let key = match scoped(&tenant_id, &who.user_id, "place_order", retry) {
            Ok(k) => k,
            Err(ScopeError::ContainsSeparator(component)) => {
                return Outcome::problem(Problem::invalid_key(&format!("{component:?} contains a reserved character")));
            }
            Err(e) => return Outcome::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let order: Order = match ex.json() {
            Ok(o) => o,
            Err(_) => return Outcome::status(Status::BAD_REQUEST),
        };
        let placed = self.book.place(&tenant_id, &order).await;
        let bytes = kestrel::json::to_vec(&placed).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
