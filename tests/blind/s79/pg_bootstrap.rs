//! PostgreSQL bootstrap for the network office's member database: the
//! idem-scope schema plus the indexes and audit table the office adds.

use idem_scope::POSTGRES_SCHEMA;
use spool::log::Log;

const EXTRA: &str = r#"
CREATE UNIQUE INDEX IF NOT EXISTS idempotency_records_lookup
    ON idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key) INCLUDE (status);
CREATE INDEX IF NOT EXISTS idempotency_records_expiry ON idempotency_records (expires_at);
CREATE TABLE IF NOT EXISTS replay_audit (
    audit_id     BIGSERIAL PRIMARY KEY,
    tenant_id    TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    route        TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    replayed_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
"#;

pub async fn bootstrap(log: &Log) -> Result<(), spool::Error> {
    let mut tx = log.begin().await?;
    tx.batch(POSTGRES_SCHEMA).await?;
    tx.batch(EXTRA).await?;
    tx.commit().await
}
