//! Creates the tables the wallet service needs on a fresh KingbaseES cluster.

use dunlin::sql::Conn;

const WALLET_IDEMPOTENCY_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS wallet_idempotency_store (
    idem_key      TEXT PRIMARY KEY,
    tenant_id     VARCHAR(64) NOT NULL,
    principal_id  VARCHAR(64) NOT NULL,
    response      BYTEA,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
"#;

const TRANSFER_IDEMPOTENCY_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS transfer_idempotency (
    scope_version VARCHAR(4)   NOT NULL DEFAULT 'v1',
    tenant_id     VARCHAR(64)  NOT NULL,
    principal_id  VARCHAR(64)  NOT NULL,
    route         VARCHAR(128) NOT NULL,
    ns            CHAR(2)      NOT NULL,
    idem_key      VARCHAR(255) NOT NULL,
    fingerprint   BYTEA        NOT NULL,
    status        VARCHAR(16)  NOT NULL DEFAULT 'in_progress',
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
"#;

const WALLET_EVENTS_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS wallet_events (
    event_id      BIGSERIAL PRIMARY KEY,
    wallet_id     VARCHAR(64) NOT NULL,
    kind          VARCHAR(32) NOT NULL,
    payload       JSONB       NOT NULL
);
"#;

pub async fn bootstrap(conn: &Conn) -> Result<(), dunlin::Error> {
    for ddl in [WALLET_IDEMPOTENCY_DDL, TRANSFER_IDEMPOTENCY_DDL, WALLET_EVENTS_DDL] {
        conn.execute_batch(ddl).await?;
    }
    Ok(())
}
