//! Vertica schema for the settlement warehouse. Constraints are declared
//! ENABLED so Vertica enforces them on load.

use sluice::sql::{OdbcPool, SqlError};

pub struct Migration {
    pub version: u32,
    pub name: &'static str,
    pub sql: &'static str,
}

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 7,
        name: "settlement_idempotency",
        sql: "
CREATE TABLE IF NOT EXISTS settlement.idempotency_tokens (
    tenant_id     VARCHAR(64)   NOT NULL,
    endpoint      VARCHAR(128)  NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    fingerprint   VARBINARY(32) NOT NULL,
    outcome       LONG VARCHAR,
    created_at    TIMESTAMPTZ   DEFAULT NOW(),
    CONSTRAINT idem_tokens_uq UNIQUE (tenant_id, endpoint, idem_key) ENABLED
)
ORDER BY tenant_id, idem_key
SEGMENTED BY HASH(tenant_id) ALL NODES;",
    },
    Migration {
        version: 8,
        name: "settlement_idempotency_v2",
        sql: "
CREATE TABLE IF NOT EXISTS settlement.idempotency_tokens_v2 (
    scope_version VARCHAR(8)    NOT NULL,
    tenant_id     VARCHAR(64)   NOT NULL,
    principal_id  VARCHAR(64)   NOT NULL,
    endpoint      VARCHAR(128)  NOT NULL,
    ns            VARCHAR(2)    NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    fingerprint   VARBINARY(32) NOT NULL,
    outcome       LONG VARCHAR,
    created_at    TIMESTAMPTZ   DEFAULT NOW(),
    CONSTRAINT idem_tokens_v2_pk PRIMARY KEY (scope_version, tenant_id, principal_id, endpoint, ns, idem_key) ENABLED
)
ORDER BY tenant_id, idem_key
SEGMENTED BY HASH(tenant_id) ALL NODES;",
    },
];

pub fn pending(applied: u32) -> impl Iterator<Item = &'static Migration> {
    MIGRATIONS.iter().filter(move |m| m.version > applied)
}

pub async fn run(pool: &OdbcPool, applied: u32) -> Result<u32, SqlError> {
    let mut last = applied;
    for m in pending(applied) {
        pool.execute_raw(m.sql).await?;
        pool.execute_raw(&format!("INSERT INTO settlement.schema_versions VALUES ({}, '{}')", m.version, m.name)).await?;
        last = m.version;
    }
    Ok(last)
}
