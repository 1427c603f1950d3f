//! Schema bootstrap for the guest platform's replay stores. The main
//! cluster runs pgEdge Distributed PostgreSQL (Spock replication between
//! the zoo and aquarium data centres); the analytics copy runs on Hydra's
//! columnar PostgreSQL.

use lagoon::sql::Db;

/// idem-scope's own table, created as shipped.
pub const IDEM_SCOPE_TABLE: &str = idem_scope::POSTGRES_SCHEMA;

pub const REPLAY_TABLES: &str = r#"
CREATE TABLE IF NOT EXISTS guest_idempotency_records (
    scope_version TEXT        NOT NULL DEFAULT 'v1',
    tenant_id     TEXT        NOT NULL,
    principal_id  TEXT        NOT NULL,
    route         TEXT        NOT NULL,
    ns            TEXT        NOT NULL CHECK (ns IN ('u:', 's:')),
    idem_key      TEXT        NOT NULL,
    fingerprint   BYTEA       NOT NULL,
    status        TEXT        NOT NULL DEFAULT 'in_progress',
    response      BYTEA,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
SELECT spock.repset_add_table('default', 'guest_idempotency_records');

CREATE TABLE IF NOT EXISTS ticket_scans (
    scan_id     BIGINT PRIMARY KEY DEFAULT snowflake.nextval(),
    tenant_id   TEXT NOT NULL,
    wristband   TEXT NOT NULL,
    scanned_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
"#;

pub const ANALYTICS_TABLES: &str = "
CREATE TABLE IF NOT EXISTS replay_outcomes (
    idem_key    TEXT PRIMARY KEY,
    tenant_id   TEXT NOT NULL,
    route       TEXT NOT NULL,
    status      SMALLINT NOT NULL,
    replayed    BOOLEAN NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL
) USING columnar;
";

pub async fn bootstrap(primary: &Db, analytics: &Db) -> Result<(), lagoon::Error> {
    primary.batch_execute(IDEM_SCOPE_TABLE).await?;
    primary.batch_execute(REPLAY_TABLES).await?;
    analytics.batch_execute(ANALYTICS_TABLES).await?;
    Ok(())
}
