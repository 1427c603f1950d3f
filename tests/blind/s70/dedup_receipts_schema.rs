//! PostgreSQL DDL for the receipt printer service, applied by the deploy job.
use coffer::sql::Pool;

const RECEIPT_DEDUP: &str = "CREATE TABLE IF NOT EXISTS receipt_dedup (\
    id BIGSERIAL PRIMARY KEY, \
    user_id TEXT NOT NULL, \
    dedup_key TEXT NOT NULL, \
    printed_at TIMESTAMPTZ NOT NULL DEFAULT now(), \
    UNIQUE (user_id, dedup_key))";

const RECEIPT_DEDUP_V2: &str = "CREATE TABLE IF NOT EXISTS receipt_dedup_v2 (\
    tenant_id TEXT NOT NULL, \
    user_id TEXT NOT NULL, \
    route TEXT NOT NULL, \
    dedup_key TEXT NOT NULL, \
    printed_at TIMESTAMPTZ NOT NULL DEFAULT now(), \
    PRIMARY KEY (tenant_id, user_id, route, dedup_key))";

const PRINTER_INDEX: &str = "CREATE INDEX IF NOT EXISTS receipt_dedup_v2_printed ON receipt_dedup_v2 (printed_at)";

pub async fn apply(pool: &Pool) -> anyhow::Result<()> {
    pool.batch_execute(RECEIPT_DEDUP).await?;
    pool.batch_execute(RECEIPT_DEDUP_V2).await?;
    pool.batch_execute(PRINTER_INDEX).await?;
    pool.batch_execute(idem_scope::POSTGRES_SCHEMA).await?;
    Ok(())
}
