use sextant::migrate::Migrator;

pub const SQLITE_REPLAY_CACHE: &str = r#"
CREATE TABLE IF NOT EXISTS replay_cache (
    idem_key      TEXT PRIMARY KEY,
    tenant_id     TEXT NOT NULL,
    response      BLOB,
    created_at    INTEGER NOT NULL
) STRICT;
"#;

pub const SQLITE_IDEMPOTENCY_V2: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_v2 (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BLOB NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response      BLOB,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
) WITHOUT ROWID, STRICT;
"#;

pub const SQLITE_SESSION_CACHE: &str = r#"
CREATE TABLE IF NOT EXISTS session_cache (
    token_hash    TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL,
    expires_at    INTEGER NOT NULL
) STRICT;
"#;

pub const SQLITE_DEDUP_ORDERS: &str = r#"
CREATE TABLE IF NOT EXISTS dedup_orders (
    id            INTEGER PRIMARY KEY,
    merchant_id   TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    order_id      TEXT
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS ux_dedup_orders ON dedup_orders (merchant_id, idem_key);
"#;

pub fn migrate(m: &mut Migrator) -> eyre::Result<()> {
    m.apply("0001_replay_cache", SQLITE_REPLAY_CACHE)?;
    m.apply("0002_idempotency_v2", SQLITE_IDEMPOTENCY_V2)?;
    m.apply("0003_session_cache", SQLITE_SESSION_CACHE)?;
    m.apply("0004_dedup_orders", SQLITE_DEDUP_ORDERS)?;
    Ok(())
}
