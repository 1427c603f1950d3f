use larder::sql::{Db, Stmt};

/// CUBRID 11.2 schema for the reservations API.
pub const IDEMPOTENCY_KEYS_DDL: &str = "
CREATE TABLE idempotency_keys (
    tenant_id     VARCHAR(64)    NOT NULL,
    user_id       VARCHAR(64)    NOT NULL,
    route         VARCHAR(128)   NOT NULL,
    idem_key      VARCHAR(255)   NOT NULL,
    fingerprint   BIT VARYING(256),
    status        VARCHAR(16)    NOT NULL DEFAULT 'in_progress',
    response      BLOB,
    created_at    DATETIME       NOT NULL DEFAULT SYS_DATETIME,
    CONSTRAINT pk_idempotency_keys PRIMARY KEY (tenant_id, idem_key)
);
CREATE INDEX ix_idempotency_keys_created ON idempotency_keys (created_at, idem_key);
";

pub async fn install(db: &Db) -> Result<(), larder::Error> {
    for stmt in IDEMPOTENCY_KEYS_DDL.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        Stmt::new(stmt).execute(db).await?;
    }
    Ok(())
}

pub async fn expire(db: &Db, older_than_hours: u32) -> Result<u64, larder::Error> {
    let done = Stmt::new("DELETE FROM idempotency_keys WHERE created_at < ADDTIME(SYS_DATETIME, ?)")
        .bind(format!("-{older_than_hours}:00:00"))
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRATCH_DDL: &str = "CREATE TABLE idempotency_scratch (idem_key VARCHAR(255) PRIMARY KEY, body BLOB)";

    #[tokio::test]
    async fn installs_twice_without_error() {
        let db = Db::in_memory().await.unwrap();
        Stmt::new(SCRATCH_DDL).execute(&db).await.unwrap();
        install(&db).await.unwrap();
        assert!(install(&db).await.is_err());
    }
}
