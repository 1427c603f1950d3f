//! DDL for the two analytics/backoffice stores that mirror idempotency
//! state: AlloyDB (PostgreSQL 15 compatible) and Firebolt.

use garner::sql::Link;

pub const ALLOYDB: &str = "
CREATE TABLE IF NOT EXISTS backoffice_idempotency (
    scope_version text NOT NULL,
    tenant_id     text NOT NULL,
    principal_id  text NOT NULL,
    route         text NOT NULL,
    ns            text NOT NULL,
    idem_key      text NOT NULL,
    status        text NOT NULL,
    response      bytea,
    CONSTRAINT backoffice_idempotency_pk PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS backoffice_idem_lookup ON backoffice_idempotency (tenant_id, route, idem_key);
SELECT google_columnar_engine_add('backoffice_idempotency');
";

pub const FIREBOLT: &str = "
CREATE FACT TABLE IF NOT EXISTS replay_audit (
    tenant_id   TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    replayed_at TIMESTAMPNTZ NOT NULL
) PRIMARY INDEX idem_key, tenant_id;
";

pub async fn apply(alloy: &Link, firebolt: &Link) -> Result<(), garner::sql::Error> {
    alloy.batch_execute(ALLOYDB).await?;
    firebolt.batch_execute(FIREBOLT).await?;
    Ok(())
}
