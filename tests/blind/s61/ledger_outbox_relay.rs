use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use larder::lease::LeaseBook;
use larder::sql::{Db, Stmt};

const RECORD_OUTCOME: &str = "INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status, response) \
     VALUES ($1, $2, $3, $4, $5, $6, 'completed', $7) ON CONFLICT DO NOTHING";

pub struct OutboxRow {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub payload: Vec<u8>,
}

pub struct LedgerSync {
    db: Db,
    leases: LeaseBook,
}

impl LedgerSync {
    /// POST /v1/ledger/sync: a customer asks for an explicit re-sync.
    pub async fn sync_on_request(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str) -> anyhow::Result<bool> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let key = scoped(tenant_id, user_id, "ledger.sync", client_key)?;
        self.record(&key, b"{\"sync\":\"requested\"}").await
    }

    /// Background relay: pushes outbox rows and records each one as done.
    pub async fn relay_batch(&self) -> anyhow::Result<usize> {
        let Some(lease) = self.leases.acquire("ledger-outbox-relay", Duration::from_secs(60)).await? else {
            return Ok(0);
        };
        let rows: Vec<OutboxRow> = Stmt::new("SELECT event_id, tenant_id, user_id, payload FROM ledger_outbox ORDER BY id LIMIT 100")
            .fetch_all(&self.db)
            .await?;
        let mut pushed = 0;
        for row in rows {
            let key = scoped(&row.tenant_id, &row.user_id, "ledger.sync", &row.event_id)?;
            if self.record(&key, &row.payload).await? {
                pushed += 1;
            }
        }
        self.leases.complete(lease).await?;
        Ok(pushed)
    }

    async fn record(&self, key: &ScopedKey, response: &[u8]) -> anyhow::Result<bool> {
        let c = key.columns();
        let inserted = Stmt::new(RECORD_OUTCOME)
            .bind(c.scope_version)
            .bind(c.tenant_id)
            .bind(c.principal_id)
            .bind(c.route)
            .bind(c.ns)
            .bind(c.idem_key)
            .bind(response)
            .execute(&self.db)
            .await?;
        Ok(inserted.rows_affected() == 1)
    }
}
