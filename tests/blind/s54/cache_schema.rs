//! Schema for the response cache used by the partner gateway.

#[cfg(feature = "postgres")]
pub mod pg {
    pub const DDL: &str = "
        CREATE TABLE IF NOT EXISTS idempotency_cache (
            tenant_id        TEXT        NOT NULL,
            route            TEXT        NOT NULL,
            idempotency_key  TEXT        NOT NULL,
            response_status  SMALLINT,
            response_body    BYTEA,
            created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
            UNIQUE (tenant_id, route, idempotency_key)
        );
    ";

    pub async fn ensure(pool: &ledgerkit::sql::Pool) -> ledgerkit::sql::Result<()> {
        pool.execute(DDL).await?;
        Ok(())
    }
}

#[cfg(feature = "fake-store")]
pub mod fake {
    pub const DDL: &str = "CREATE TABLE idempotency_cache (idempotency_key TEXT PRIMARY KEY, body BLOB)";

    pub fn open() -> rusqlite::Connection {
        let conn = rusqlite::Connection::open_in_memory().expect("in-memory sqlite");
        conn.execute_batch(DDL).expect("fake schema");
        conn
    }
}

#[cfg(test)]
mod tests {
    const LEGACY_DDL: &str = "CREATE TABLE replay_entries (request_key TEXT PRIMARY KEY, body BLOB)";

    #[test]
    fn legacy_schema_parses() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(LEGACY_DDL).unwrap();
        conn.execute_batch(super::pg::DDL.replace("TIMESTAMPTZ", "TEXT").replace("now()", "0").as_str()).unwrap();
    }
}
