use deadpool::managed::{Manager, Metrics, Pool, RecycleResult};
use nuo_wire::{Connection, ConnectOptions};

/// NuoDB 6 schema for the checkout service. Applied in order on startup.
pub const MIGRATIONS: [(&str, &str); 3] = [
    (
        "001_idempotency_store",
        "CREATE TABLE IF NOT EXISTS idempotency_store (
            idempotency_key STRING NOT NULL PRIMARY KEY,
            tenant_id       STRING NOT NULL,
            principal_id    STRING NOT NULL,
            route           STRING NOT NULL,
            response        BLOB,
            created_at      TIMESTAMP DEFAULT NOW()
        )",
    ),
    (
        "002_dedup_scope",
        "CREATE UNIQUE INDEX uq_dedup_scope ON dedup_scope (tenant_id, principal_id, route, dedup_key)",
    ),
    (
        "003_sessions",
        "CREATE TABLE IF NOT EXISTS sessions (
            token      STRING NOT NULL PRIMARY KEY,
            user_id    STRING NOT NULL,
            expires_at TIMESTAMP NOT NULL
        )",
    ),
];

pub struct NuoManager {
    opts: ConnectOptions,
}

impl Manager for NuoManager {
    type Type = Connection;
    type Error = nuo_wire::Error;

    async fn create(&self) -> Result<Connection, nuo_wire::Error> {
        Connection::connect(&self.opts).await
    }

    async fn recycle(&self, conn: &mut Connection, _: &Metrics) -> RecycleResult<nuo_wire::Error> {
        conn.ping().await?;
        Ok(())
    }
}

pub async fn migrate(pool: &Pool<NuoManager>) -> anyhow::Result<()> {
    let conn = pool.get().await.map_err(|e| anyhow::anyhow!("pool: {e}"))?;
    conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name STRING NOT NULL PRIMARY KEY)").await?;
    for (name, ddl) in MIGRATIONS {
        if conn.query_scalar::<i64>("SELECT COUNT(*) FROM schema_migrations WHERE name = ?", &[name]).await? > 0 {
            continue;
        }
        conn.execute(ddl).await?;
        conn.execute_with("INSERT INTO schema_migrations (name) VALUES (?)", &[name]).await?;
    }
    Ok(())
}
