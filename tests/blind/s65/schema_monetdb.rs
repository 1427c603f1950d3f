use tessera::sql::Conn;

pub const IDEMPOTENCY_TABLE: &str = "
CREATE TABLE IF NOT EXISTS idempotency_records (
    workspace_id     VARCHAR(64)  NOT NULL,
    client_id        VARCHAR(64)  NOT NULL,
    idempotency_key  VARCHAR(255) NOT NULL,
    status           VARCHAR(16)  NOT NULL,
    response         BLOB,
    created_at       TIMESTAMP WITH TIME ZONE DEFAULT now(),
    PRIMARY KEY (workspace_id, client_id, idempotency_key)
)";

pub const REQUEST_CACHE_TABLE: &str = "
CREATE TABLE IF NOT EXISTS request_cache (
    idem_key     VARCHAR(255) PRIMARY KEY,
    body         BLOB,
    hits         INT DEFAULT 0
)";

pub fn bootstrap(conn: &Conn) -> Result<(), tessera::sql::Error> {
    conn.execute_batch_blocking(IDEMPOTENCY_TABLE)?;
    conn.execute_batch_blocking(REQUEST_CACHE_TABLE)?;
    conn.execute_batch_blocking("ALTER TABLE idempotency_records SET READ WRITE")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = "CREATE TABLE idempotency_records (idempotency_key VARCHAR(255) PRIMARY KEY, response BLOB)";

    #[test]
    fn bootstrap_is_repeatable() {
        let conn = Conn::in_memory_monetdb().unwrap();
        conn.execute_batch_blocking(FIXTURE).unwrap();
        bootstrap(&conn).unwrap();
        bootstrap(&conn).unwrap();
    }
}
