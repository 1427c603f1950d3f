use std::time::Duration;

use ignite_thin::{Client, ClientConfig, SqlFieldsQuery};

/// Apache Ignite 2.16 SQL (thin client). Caches are created through DDL so the
/// Java services and this Rust gateway share them.
const REPLAY_RESPONSES: &str = r#"
CREATE TABLE IF NOT EXISTS replay_responses (
    tenant_id     VARCHAR,
    principal_id  VARCHAR,
    replay_key    VARCHAR,
    status        SMALLINT,
    body          VARBINARY,
    PRIMARY KEY (tenant_id, principal_id, replay_key)
) WITH "template=partitioned,backups=1,affinity_key=tenant_id,cache_name=ReplayResponses"
"#;

const IDEMPOTENCY_INDEX: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_index (
    tenant_id     VARCHAR,
    principal_id  VARCHAR,
    route         VARCHAR,
    idem_key      VARCHAR,
    state         VARCHAR,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
) WITH "template=partitioned,backups=1,affinity_key=tenant_id"
"#;

const RATE_BUCKETS: &str = r#"
CREATE TABLE IF NOT EXISTS rate_buckets (
    bucket_key    VARCHAR PRIMARY KEY,
    tokens        INT,
    refreshed_at  TIMESTAMP
) WITH "template=replicated"
"#;

pub async fn create_caches(cfg: ClientConfig) -> anyhow::Result<()> {
    let client = Client::connect(cfg).await?;
    for ddl in [REPLAY_RESPONSES, IDEMPOTENCY_INDEX, RATE_BUCKETS] {
        client
            .query_fields(SqlFieldsQuery::new(ddl).schema("PUBLIC").timeout(Duration::from_secs(30)))
            .await?;
    }
    client
        .query_fields(SqlFieldsQuery::new("CREATE INDEX IF NOT EXISTS ix_replay_key ON replay_responses (replay_key)").schema("PUBLIC"))
        .await?;
    Ok(())
}
