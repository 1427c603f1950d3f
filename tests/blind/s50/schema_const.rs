//! Embedded schema for the edge cache node (SQLite-compatible dialect via libSQL-free shim).
pub const USERS_DDL: &str = "CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE
)";

pub const IDEMPOTENCY_DDL: &str = "CREATE TABLE IF NOT EXISTS idempotency_store (
    idem_key   TEXT NOT NULL,
    tenant_id  TEXT NOT NULL,
    status     TEXT NOT NULL,
    response   BLOB,
    created_at INTEGER NOT NULL,
    UNIQUE (idem_key, tenant_id)
)";

pub const RATE_LIMIT_DDL: &str = "CREATE TABLE IF NOT EXISTS rate_buckets (
    bucket_key TEXT PRIMARY KEY,
    tokens     INTEGER NOT NULL
)";

pub fn all() -> [&'static str; 3] {
    [USERS_DDL, IDEMPOTENCY_DDL, RATE_LIMIT_DDL]
}

pub fn apply(exec: &mut dyn FnMut(&str) -> Result<(), String>) -> Result<(), String> {
    for ddl in all() {
        exec(ddl)?;
    }
    Ok(())
}
