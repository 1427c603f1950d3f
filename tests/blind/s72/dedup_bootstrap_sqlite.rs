//! Edge-node bootstrap: every point-of-sale box keeps a small SQLite file
//! replicated by LiteFS. Opened through deadpool-sqlite.

use deadpool_sqlite::{Config, Pool, Runtime};

const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS dedup_window (
    account_id  TEXT    NOT NULL,
    idem_key    TEXT    NOT NULL,
    seen_at     INTEGER NOT NULL,
    UNIQUE (account_id, idem_key)
);

CREATE TABLE IF NOT EXISTS idempotency_log (
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    response      BLOB,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
);

CREATE TABLE IF NOT EXISTS till_sessions (
    till_id   TEXT PRIMARY KEY,
    opened_at INTEGER NOT NULL
);
"#;

pub async fn open(path: &str) -> anyhow::Result<Pool> {
    let pool = Config::new(path).create_pool(Runtime::Tokio1)?;
    let conn = pool.get().await?;
    conn.interact(|c| c.execute_batch(SCHEMA)).await.map_err(|e| anyhow::anyhow!("{e}"))??;
    Ok(pool)
}
