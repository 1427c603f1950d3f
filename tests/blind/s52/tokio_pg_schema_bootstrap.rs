use bb8::Pool;
use bb8_postgres::PostgresConnectionManager;
use tokio_postgres::NoTls;

pub type PgPool = Pool<PostgresConnectionManager<NoTls>>;

const STEPS: &[(&str, &str)] = &[
    (
        "001_idempotent_requests",
        "CREATE TABLE IF NOT EXISTS idempotent_requests (
            account_id       TEXT        NOT NULL,
            idempotency_key  TEXT        NOT NULL,
            response_status  SMALLINT,
            response_body    BYTEA,
            created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
            UNIQUE (account_id, idempotency_key)
        )",
    ),
    (
        "002_idempotency_records",
        "CREATE TABLE IF NOT EXISTS idempotency_records (
            scope_version TEXT NOT NULL,
            tenant_id     TEXT NOT NULL,
            principal_id  TEXT NOT NULL,
            route         TEXT NOT NULL,
            ns            TEXT NOT NULL,
            idem_key      TEXT NOT NULL,
            fingerprint   BYTEA NOT NULL,
            status        TEXT NOT NULL,
            response      JSONB,
            expires_at    TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
        )",
    ),
    (
        "003_idempotency_records_expiry",
        "CREATE INDEX IF NOT EXISTS idempotency_records_expires_at ON idempotency_records (expires_at)",
    ),
    (
        "004_processed_events",
        "CREATE TABLE IF NOT EXISTS processed_events (
            event_id     TEXT PRIMARY KEY,
            processed_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )",
    ),
    (
        "005_operator_sessions",
        "CREATE TABLE IF NOT EXISTS operator_sessions (
            token_hash  BYTEA PRIMARY KEY,
            user_id     TEXT NOT NULL,
            expires_at  TIMESTAMPTZ NOT NULL
        )",
    ),
];

pub async fn migrate(pool: &PgPool) -> anyhow::Result<usize> {
    let mut conn = pool.get().await?;
    conn.batch_execute("CREATE TABLE IF NOT EXISTS schema_steps (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")
        .await?;
    let mut applied = 0;
    for (name, sql) in STEPS {
        let tx = conn.transaction().await?;
        let done = tx.query_opt("SELECT 1 FROM schema_steps WHERE name = $1", &[name]).await?;
        if done.is_some() {
            continue;
        }
        tx.batch_execute(sql).await?;
        tx.execute("INSERT INTO schema_steps (name) VALUES ($1)", &[name]).await?;
        tx.commit().await?;
        applied += 1;
    }
    Ok(applied)
}

#[cfg(test)]
mod tests {
    const SCRATCH: &str = "CREATE TABLE idempotency_scratch (idem_key TEXT PRIMARY KEY, body TEXT)";

    #[tokio::test]
    async fn scratch_table_parses() {
        let (client, conn) = tokio_postgres::connect(&std::env::var("TEST_PG").unwrap(), tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(conn);
        client.batch_execute(SCRATCH).await.unwrap();
    }
}
