use tessera::sql::Conn;

/// VoltDB 13 catalog for the in-memory fraud pre-check.
const CATALOG: &str = r#"
CREATE TABLE replay_requests (
    tenant_id   VARCHAR(64)  NOT NULL,
    api_key_id  VARCHAR(64)  NOT NULL,
    handler     VARCHAR(64)  NOT NULL,
    replay_key  VARCHAR(255) NOT NULL,
    verdict     TINYINT      NOT NULL,
    seen_at     TIMESTAMP    DEFAULT NOW,
    CONSTRAINT pk_replay_requests PRIMARY KEY (tenant_id, api_key_id, handler, replay_key)
);
PARTITION TABLE replay_requests ON COLUMN tenant_id;

CREATE TABLE dedup_markers (
    dedup_key   VARCHAR(255) UNIQUE NOT NULL,
    tenant_id   VARCHAR(64)  NOT NULL,
    marked_at   TIMESTAMP    DEFAULT NOW
);

CREATE INDEX ix_dedup_markers_tenant ON dedup_markers (tenant_id, dedup_key);

CREATE PROCEDURE mark_seen AS
    INSERT INTO dedup_markers (dedup_key, tenant_id) VALUES (?, ?);
"#;

pub fn load_catalog(conn: &Conn) -> Result<(), tessera::sql::Error> {
    for statement in CATALOG.split(";\n").map(str::trim).filter(|s| !s.is_empty()) {
        conn.execute_batch_blocking(statement)?;
    }
    Ok(())
}

pub fn purge_markers(conn: &Conn, older_than_hours: u32) -> Result<u64, tessera::sql::Error> {
    let cutoff = chrono_lite_cutoff(older_than_hours);
    conn.call_procedure_blocking("@AdHoc", &["DELETE FROM dedup_markers WHERE marked_at < ?", &cutoff])
}

fn chrono_lite_cutoff(hours: u32) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() as u64)
        .unwrap_or(0);
    let cutoff = now.saturating_sub(u64::from(hours) * 3_600_000_000);
    cutoff.to_string()
}

pub fn table_names() -> Vec<&'static str> {
    CATALOG
        .lines()
        .filter_map(|l| l.trim().strip_prefix("CREATE TABLE "))
        .filter_map(|rest| rest.split_whitespace().next())
        .collect()
}
