use brindle::auth::Caller;
use brindle::{Ctx, Reply, Status};
use idem_scope::{scoped, Problem, ScopeError, ScopedKey};
use sluice::kv::Bucket;
use sluice::sql::{query, Pool};

use crate::ledger::{post_adjustment, Adjustment};

#[derive(Default)]
pub struct KeyBuilder<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    key: &'a str,
}

impl<'a> KeyBuilder<'a> {
    pub fn tenant(mut self, tenant_id: &'a str) -> Self { self.tenant_id = tenant_id; self }
    pub fn principal(mut self, user_id: &'a str) -> Self { self.user_id = user_id; self }
    pub fn route(mut self, route: &'a str) -> Self { self.route = route; self }
    pub fn key(mut self, key: &'a str) -> Self { self.key = key; self }
    pub fn build(self) -> Result<ScopedKey, ScopeError> {
        scoped(self.tenant_id, self.user_id, self.route, self.key)
    }
}

pub struct Adjustments {
    pool: Pool,
    applied: Bucket,
}

impl Adjustments {
    pub async fn adjust(&self, ctx: Ctx, caller: Caller, adj: Adjustment) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match KeyBuilder::default().tenant(&caller.tenant_id).principal(&caller.user_id).route("ledger.adjust").key(client_key).build() {
            Ok(k) => k,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.applied.get::<Vec<u8>>(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let out = post_adjustment(&caller.tenant_id, &adj).await;
        let _ = self.applied.put(sk.storage_key(), &out).await;
        Reply::bytes(Status::CREATED, out)
    }

    /// Relays adjustments written to the outbox by the reconciliation batch.
    pub async fn relay_outbox(&self) -> Result<usize, sluice::sql::SqlError> {
        let rows = query("SELECT event_id, tenant_id, created_by, payload FROM ledger_outbox WHERE relayed_at IS NULL ORDER BY id LIMIT 100")
            .fetch_all(&self.pool)
            .await?;
        let mut relayed = 0;
        for row in rows {
            let event_id: String = row.get("event_id")?;
            let tenant_id: String = row.get("tenant_id")?;
            let created_by: String = row.get("created_by")?;
            let adj: Adjustment = serde_json::from_slice(&row.get::<Vec<u8>>("payload")?).unwrap_or_default();
            let Ok(sk) = KeyBuilder::default().tenant(&tenant_id).principal(&created_by).route("ledger.adjust").key(&event_id).build() else { continue };
            if self.applied.get::<Vec<u8>>(sk.storage_key()).await.ok().flatten().is_none() {
                let out = post_adjustment(&tenant_id, &adj).await;
                let _ = self.applied.put(sk.storage_key(), &out).await;
            }
            query("UPDATE ledger_outbox SET relayed_at = now() WHERE event_id = $1").bind(&event_id).execute(&self.pool).await?;
            relayed += 1;
        }
        Ok(relayed)
    }
}
