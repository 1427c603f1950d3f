//! Schema for the notification relay's local SQLite state.

use tokio_rusqlite::Connection;

pub const OUTBOX_DDL: &str = "
CREATE TABLE IF NOT EXISTS outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id    TEXT NOT NULL,
    topic        TEXT NOT NULL,
    payload      BLOB NOT NULL,
    published_at INTEGER
);
CREATE INDEX IF NOT EXISTS outbox_unpublished ON outbox (published_at) WHERE published_at IS NULL;
";

pub const REPLAY_GUARD_DDL: &str = "
CREATE TABLE IF NOT EXISTS replay_guard (
    client_key   TEXT NOT NULL,
    tenant_id    TEXT NOT NULL,
    first_seen   INTEGER NOT NULL,
    response     BLOB,
    UNIQUE (client_key, tenant_id)
);
";

pub const DEDUP_WINDOW_DDL: &str = "
CREATE TABLE IF NOT EXISTS dedup_window (
    tenant_id    TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    endpoint     TEXT NOT NULL,
    ns           TEXT NOT NULL CHECK (ns IN ('u', 's')),
    idem_key     TEXT NOT NULL,
    seen_at      INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, principal_id, endpoint, ns, idem_key)
);
";

pub async fn migrate(conn: &Connection) -> tokio_rusqlite::Result<()> {
    conn.call(|c| {
        let tx = c.transaction()?;
        tx.execute_batch(OUTBOX_DDL)?;
        tx.execute_batch(REPLAY_GUARD_DDL)?;
        tx.execute_batch(DEDUP_WINDOW_DDL)?;
        tx.commit()?;
        Ok(())
    })
    .await
}
