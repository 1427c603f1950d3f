use async_sqlite::{ClientBuilder, JournalMode, Pool, PoolBuilder};

/// Schema for the offline POS terminals; each terminal keeps its own replay
/// tables and syncs them to the cloud when it is back online.
const SCHEMA: &[&str] = &[
    r#"CREATE TABLE IF NOT EXISTS idempotency_keys (
        idempotency_key TEXT NOT NULL PRIMARY KEY,
        tenant_id       TEXT NOT NULL,
        cashier_id      TEXT NOT NULL,
        response        BLOB,
        created_at      INTEGER NOT NULL
    )"#,
    r#"CREATE INDEX IF NOT EXISTS idempotency_keys_created_at ON idempotency_keys (created_at)"#,
    r#"CREATE TABLE IF NOT EXISTS replay_responses (
        tenant_id    TEXT NOT NULL,
        principal_id TEXT NOT NULL,
        route        TEXT NOT NULL,
        idem_key     TEXT NOT NULL,
        fingerprint  BLOB NOT NULL,
        response     BLOB,
        PRIMARY KEY (tenant_id, principal_id, route, idem_key)
    ) WITHOUT ROWID"#,
    r#"CREATE TABLE IF NOT EXISTS sync_cursor (
        terminal_id TEXT PRIMARY KEY,
        last_synced INTEGER NOT NULL
    )"#,
];

pub async fn open_terminal_db(path: &str) -> Result<Pool, async_sqlite::Error> {
    let pool = PoolBuilder::new().path(path).journal_mode(JournalMode::Wal).num_conns(2).open().await?;
    pool.conn(|conn| {
        for stmt in SCHEMA {
            conn.execute_batch(stmt)?;
        }
        Ok(())
    })
    .await?;
    Ok(pool)
}

pub async fn open_scratch() -> Result<async_sqlite::Client, async_sqlite::Error> {
    ClientBuilder::new().path(":memory:").open().await
}
