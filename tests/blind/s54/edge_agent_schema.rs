use rusqlite::Connection;

/// Local state of the edge agent. Applied on every start; statements are idempotent.
const EDGE_SCHEMA: &[(&str, &str)] = &[
    (
        "blobs",
        "CREATE TABLE IF NOT EXISTS blobs (
            digest      TEXT PRIMARY KEY,
            size_bytes  INTEGER NOT NULL,
            fetched_at  INTEGER NOT NULL
        )",
    ),
    (
        "replay_cache",
        "CREATE TABLE IF NOT EXISTS replay_cache (
            idem_key    TEXT NOT NULL UNIQUE,
            tenant_id   TEXT NOT NULL,
            actor       TEXT NOT NULL,
            operation   TEXT NOT NULL,
            status      INTEGER NOT NULL,
            body        BLOB,
            stored_at   INTEGER NOT NULL
        )",
    ),
    (
        "upload_dedup",
        "CREATE TABLE IF NOT EXISTS upload_dedup (
            tenant_id   TEXT NOT NULL,
            actor       TEXT NOT NULL,
            operation   TEXT NOT NULL,
            upload_key  TEXT NOT NULL,
            blob_digest TEXT NOT NULL REFERENCES blobs (digest),
            PRIMARY KEY (tenant_id, actor, operation, upload_key)
        )",
    ),
];

pub fn apply(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    for (name, ddl) in EDGE_SCHEMA {
        tracing::debug!(table = name, "ensuring table");
        tx.execute_batch(ddl)?;
    }
    tx.execute_batch("PRAGMA user_version = 4")?;
    tx.commit()
}
