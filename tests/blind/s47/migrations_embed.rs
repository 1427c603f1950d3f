use sqlite::Connection;

const SCHEMA_V1: &str = r#"
CREATE TABLE IF NOT EXISTS dedup_keys (
    tenant_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE,
    response TEXT,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    idempotency_key TEXT,
    message TEXT NOT NULL
);
"#;

const SCHEMA_V2: &str = r#"
CREATE TABLE IF NOT EXISTS webhook_receipts (
    delivery_id TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    PRIMARY KEY (delivery_id)
);
CREATE TABLE IF NOT EXISTS idempotency_v2 (
    scope_version TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    route TEXT NOT NULL,
    ns TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    fingerprint BLOB NOT NULL,
    CONSTRAINT idempotency_v2_pk PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
CREATE INDEX IF NOT EXISTS idempotency_v2_created ON idempotency_v2 (tenant_id, route);
"#;

pub fn migrate(conn: &Connection, from: u32) -> sqlite::Result<()> {
    if from < 1 {
        conn.execute(SCHEMA_V1)?;
    }
    if from < 2 {
        conn.execute(SCHEMA_V2)?;
    }
    Ok(())
}
