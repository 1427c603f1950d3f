//! Postgres-backed idempotency claims for the billing service.

use std::future::Future;
use std::time::Duration;

use idem_scope::{Fingerprint, ScopedKey};
use silage::tab::Tab;

pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_requests (
    scope_version TEXT        NOT NULL,
    tenant_id     TEXT        NOT NULL,
    principal_id  TEXT        NOT NULL,
    route         TEXT        NOT NULL,
    ns            TEXT        NOT NULL,
    idem_key      TEXT        NOT NULL,
    fingerprint   BYTEA       NOT NULL,
    status        TEXT        NOT NULL,
    response      BYTEA,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
"#;

#[derive(Debug, thiserror::Error)]
pub enum PgIdemError {
    #[error("database: {0}")]
    Db(#[from] silage::tab::TabError),
    #[error("work did not finish within the deadline")]
    Deadline,
    #[error("work failed: {0}")]
    Work(String),
    #[error("request is still in progress")]
    InProgress,
}

pub struct PgClaims {
    pub tab: Tab,
    pub deadline: Duration,
}

impl PgClaims {
    pub async fn run_once<F, Fut>(&self, key: &ScopedKey, fp: &Fingerprint, work: F) -> Result<Vec<u8>, PgIdemError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Vec<u8>, String>>,
    {
        let c = key.columns();
        let inserted = self.tab.q("INSERT INTO idempotency_requests (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress') ON CONFLICT DO NOTHING")
            .bind(c.scope_version)
            .bind(c.tenant_id)
            .bind(c.principal_id)
            .bind(c.route)
            .bind(c.ns)
            .bind(c.idem_key)
            .bind(fp.as_bytes().as_slice())
            .exec()
            .await?;
        if inserted == 0 {
            return Err(PgIdemError::InProgress);
        }

        let response = tokio::time::timeout(self.deadline, work())
            .await
            .map_err(|_| PgIdemError::Deadline)?
            .map_err(PgIdemError::Work)?;

        self.tab
            .q("UPDATE idempotency_requests SET status = 'completed', response = $7 \
                WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
            .bind(c.scope_version)
            .bind(c.tenant_id)
            .bind(c.principal_id)
            .bind(c.route)
            .bind(c.ns)
            .bind(c.idem_key)
            .bind(response.as_slice())
            .exec()
            .await?;
        Ok(response)
    }

    pub async fn release(&self, key: &ScopedKey) -> Result<(), PgIdemError> {
        let c = key.columns();
        self.tab
            .q("DELETE FROM idempotency_requests WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6 AND status = 'in_progress'")
            .bind(c.scope_version)
            .bind(c.tenant_id)
            .bind(c.principal_id)
            .bind(c.route)
            .bind(c.ns)
            .bind(c.idem_key)
            .exec()
            .await?;
        Ok(())
    }
}
