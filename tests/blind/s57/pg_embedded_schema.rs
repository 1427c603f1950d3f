use wtx::database::client::postgres::{Executor, ExecutorBuffer};
use wtx::database::Executor as _;
use wtx::misc::Stream;

/// Schema of the billing API, embedded so that `billing migrate` works from a
/// single binary. PostgreSQL 16.
pub const SCHEMA: &[&str] = &[IDEMPOTENCY_RECORDS, IDEMPOTENCY_RESPONSES, REPLAY_EXPORTS];

const IDEMPOTENCY_RECORDS: &str = "
CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version    TEXT        NOT NULL DEFAULT 'v1',
    org_id           BIGINT      NOT NULL,
    api_key_id       BIGINT      NOT NULL,
    operation        TEXT        NOT NULL,
    ns               TEXT        NOT NULL,
    idempotency_key  TEXT        NOT NULL,
    fingerprint      BYTEA       NOT NULL,
    status           TEXT        NOT NULL CHECK (status IN ('in_progress', 'completed')),
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at       TIMESTAMPTZ NOT NULL,
    CONSTRAINT idempotency_records_pk PRIMARY KEY (scope_version, org_id, api_key_id, operation, ns, idempotency_key)
)";

const IDEMPOTENCY_RESPONSES: &str = "
CREATE TABLE IF NOT EXISTS idempotency_responses (
    response_id     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    org_id          BIGINT      NOT NULL,
    api_key_id      BIGINT      NOT NULL,
    operation       TEXT        NOT NULL,
    idempotency_key TEXT        NOT NULL,
    status_code     SMALLINT    NOT NULL,
    headers         JSONB       NOT NULL DEFAULT '{}',
    body            BYTEA       NOT NULL
)";

const REPLAY_EXPORTS: &str = "
CREATE TABLE IF NOT EXISTS replay_exports (
    export_id     UUID        PRIMARY KEY,
    org_id        BIGINT      NOT NULL,
    requested_by  BIGINT      NOT NULL,
    range_start   TIMESTAMPTZ NOT NULL,
    range_end     TIMESTAMPTZ NOT NULL,
    object_url    TEXT
)";

pub async fn migrate<S: Stream>(exec: &mut Executor<wtx::Error, ExecutorBuffer, S>) -> wtx::Result<()> {
    exec.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INT PRIMARY KEY)", |_| Ok(())).await?;
    for (version, ddl) in SCHEMA.iter().enumerate() {
        let v = version as i32 + 1;
        let done: Option<i32> = exec.fetch_with_stmt("SELECT version FROM schema_migrations WHERE version = $1", (v,)).await.ok().and_then(|r| r.decode(0).ok());
        if done.is_some() {
            continue;
        }
        exec.transaction(|tx| async move {
            tx.execute(ddl, |_| Ok(())).await?;
            tx.execute_with_stmt("INSERT INTO schema_migrations (version) VALUES ($1)", (v,)).await?;
            Ok(((), tx))
        })
        .await?;
    }
    Ok(())
}
