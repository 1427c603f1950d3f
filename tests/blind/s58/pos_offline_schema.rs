//! Schema of the offline point-of-sale database (SQLite 3.46, one file per till).

use cairn::embedded::Db;

pub const SCHEMA_VERSION: u32 = 7;

pub const SCHEMA: &str = r#"
PRAGMA journal_mode = WAL;

CREATE TABLE IF NOT EXISTS pos_dedup (
    tenant_id   TEXT    NOT NULL,
    route       TEXT    NOT NULL,
    idem_key    TEXT    NOT NULL,
    response    BLOB,
    created_at  INTEGER NOT NULL DEFAULT (unixepoch()),
    PRIMARY KEY (tenant_id, route, idem_key)
) WITHOUT ROWID, STRICT;

CREATE TABLE IF NOT EXISTS pos_idempotency (
    scope_version TEXT    NOT NULL,
    tenant_id     TEXT    NOT NULL,
    principal_id  TEXT    NOT NULL,
    route         TEXT    NOT NULL,
    ns            TEXT    NOT NULL CHECK (ns IN ('u:', 's:')),
    idem_key      TEXT    NOT NULL,
    fingerprint   BLOB    NOT NULL,
    status        TEXT    NOT NULL,
    response      BLOB,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
) WITHOUT ROWID, STRICT;

CREATE TABLE IF NOT EXISTS receipts (
    receipt_no  INTEGER PRIMARY KEY,
    tenant_id   TEXT    NOT NULL,
    total_minor INTEGER NOT NULL,
    printed_at  INTEGER
) STRICT;
"#;

pub fn migrate(db: &Db) -> anyhow::Result<()> {
    let current: u32 = db.query_scalar("PRAGMA user_version")?;
    if current >= SCHEMA_VERSION {
        return Ok(());
    }
    db.execute_batch(SCHEMA)?;
    db.execute_batch(&format!("PRAGMA user_version = {}", SCHEMA_VERSION))?;
    Ok(())
}
