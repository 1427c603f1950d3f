//! Schema bootstrap for the CrateDB cluster behind the request log.
//! CrateDB speaks the PostgreSQL wire protocol, so the regular pool is used.

use sluice::sql::{Pool, SqlError};

const IDEMPOTENCY_LOG: &str = r#"
CREATE TABLE IF NOT EXISTS doc.idempotency_log (
    idem_key      TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    endpoint      TEXT,
    fingerprint   TEXT NOT NULL,
    status        SMALLINT,
    response      OBJECT(IGNORED),
    created_at    TIMESTAMP WITH TIME ZONE DEFAULT now(),
    PRIMARY KEY (idem_key, tenant_id)
) CLUSTERED BY (tenant_id) INTO 6 SHARDS
WITH (number_of_replicas = '1', "refresh_interval" = 1000)
"#;

const REQUEST_METRICS: &str = r#"
CREATE TABLE IF NOT EXISTS doc.request_metrics (
    minute        TIMESTAMP WITH TIME ZONE NOT NULL,
    endpoint      TEXT NOT NULL,
    requests      BIGINT,
    replays       BIGINT,
    p99_ms        DOUBLE PRECISION,
    PRIMARY KEY (minute, endpoint)
) PARTITIONED BY (minute)
"#;

pub async fn bootstrap(pool: &Pool) -> Result<(), SqlError> {
    for (name, ddl) in [("idempotency_log", IDEMPOTENCY_LOG), ("request_metrics", REQUEST_METRICS)] {
        tracing::info!(table = name, "ensuring table");
        pool.execute_raw(ddl).await?;
    }
    pool.execute_raw("REFRESH TABLE doc.idempotency_log").await?;
    Ok(())
}

pub async fn expire(pool: &Pool, older_than_hours: i64) -> Result<u64, SqlError> {
    let sql = format!(
        "DELETE FROM doc.idempotency_log WHERE created_at < now() - INTERVAL '{} hours'",
        older_than_hours
    );
    let n = pool.execute_raw(&sql).await?;
    Ok(n)
}
