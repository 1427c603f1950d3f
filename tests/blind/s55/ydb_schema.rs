use ydb::{Client, YdbResult};

const IDEMPOTENCY_TABLE: &str = r#"
CREATE TABLE idempotency_keys (
    tenant_id     Utf8,
    idem_key      Utf8,
    principal_id  Utf8,
    route         Utf8,
    status        Utf8,
    response      String,
    created_at    Timestamp,
    PRIMARY KEY (tenant_id, idem_key)
) WITH (TTL = Interval("P1D") ON created_at);
"#;

const REPLAY_AUDIT_TABLE: &str = r#"
CREATE TABLE replay_audit (
    tenant_id     Utf8,
    principal_id  Utf8,
    route         Utf8,
    idem_key      Utf8,
    replayed_at   Timestamp,
    status_code   Uint32,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key, replayed_at)
);
"#;

const LEASES_TABLE: &str = r#"
CREATE TABLE job_leases (
    job_name     Utf8,
    holder       Utf8,
    lease_until  Timestamp,
    PRIMARY KEY (job_name)
);
"#;

pub async fn apply_schema(client: &Client) -> YdbResult<()> {
    let tables = client.table_client();
    for ddl in [IDEMPOTENCY_TABLE, REPLAY_AUDIT_TABLE, LEASES_TABLE] {
        tables.retry_execute_scheme_query(ddl).await?;
    }
    tracing::info!("ydb schema applied");
    Ok(())
}
