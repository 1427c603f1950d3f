use sextant::sql::Pool;

const CRDB_REPLAY_LOG: &str = "
CREATE TABLE IF NOT EXISTS replay_log (
    tenant_id   STRING NOT NULL,
    idem_key    STRING NOT NULL,
    response    BYTES,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT replay_log_pk PRIMARY KEY (tenant_id, idem_key) USING HASH
) WITH (ttl_expiration_expression = 'created_at + INTERVAL ''1 day''');
";

const CRDB_IDEMPOTENCY_REQUESTS: &str = "
CREATE TABLE IF NOT EXISTS idempotency_requests (
    tenant_id     STRING NOT NULL,
    principal_id  STRING NOT NULL,
    operation     STRING NOT NULL,
    idem_key      STRING NOT NULL,
    fingerprint   BYTES NOT NULL,
    status        STRING NOT NULL DEFAULT 'in_progress',
    response      BYTES,
    PRIMARY KEY (tenant_id, principal_id, operation, idem_key),
    INDEX idempotency_requests_status_idx (status)
);
";

const CRDB_DEDUP_CALLBACKS: &str = "
CREATE TABLE IF NOT EXISTS dedup_callbacks (
    id            UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
    principal_id  STRING NOT NULL,
    route         STRING NOT NULL,
    idem_key      STRING NOT NULL,
    UNIQUE (principal_id, route, idem_key)
);
";

pub async fn install(pool: &Pool) -> eyre::Result<()> {
    for ddl in [CRDB_REPLAY_LOG, CRDB_IDEMPOTENCY_REQUESTS, CRDB_DEDUP_CALLBACKS] {
        pool.execute_batch(ddl).await?;
    }
    Ok(())
}
