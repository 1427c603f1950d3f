use gcp_bigquery_client::model::query_request::QueryRequest;
use gcp_bigquery_client::Client;

const PROJECT: &str = "billing-prod-4411";

/// BigQuery DDL for the billing dataset. Keys are informational (NOT ENFORCED);
/// the MERGE statements in `loader.rs` are what keep rows unique.
const STATEMENTS: &[&str] = &[
    r#"
CREATE TABLE IF NOT EXISTS billing.idempotency_log (
    tenant_id     STRING NOT NULL,
    principal_id  STRING NOT NULL,
    route         STRING NOT NULL,
    idem_key      STRING NOT NULL,
    response_json JSON,
    created_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (idem_key) NOT ENFORCED
)
PARTITION BY DATE(created_at)
CLUSTER BY tenant_id
"#,
    r#"
CREATE TABLE IF NOT EXISTS billing.replay_windows (
    tenant_id     STRING NOT NULL,
    principal_id  STRING NOT NULL,
    route         STRING NOT NULL,
    replay_key    STRING NOT NULL,
    window_end    TIMESTAMP NOT NULL,
    PRIMARY KEY (tenant_id, principal_id, route, replay_key) NOT ENFORCED
)
CLUSTER BY tenant_id, route
"#,
    r#"
CREATE TABLE IF NOT EXISTS billing.usage_events (
    event_id      STRING NOT NULL,
    tenant_id     STRING NOT NULL,
    meter         STRING NOT NULL,
    quantity      NUMERIC NOT NULL,
    occurred_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (event_id) NOT ENFORCED
)
PARTITION BY DATE(occurred_at)
"#,
];

pub async fn ensure_tables(client: &Client) -> anyhow::Result<()> {
    for ddl in STATEMENTS {
        let job = client.job().query(PROJECT, QueryRequest::new(*ddl)).await?;
        if let Some(errors) = job.errors {
            anyhow::bail!("DDL failed: {:?}", errors);
        }
    }
    Ok(())
}

pub async fn drop_all(client: &Client) -> anyhow::Result<()> {
    for table in ["idempotency_log", "replay_windows", "usage_events"] {
        client.table().delete(PROJECT, "billing", table).await?;
    }
    Ok(())
}
