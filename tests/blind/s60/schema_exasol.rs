use std::time::Duration;

use anyhow::{Context as _, Result};
use tracing::info;

use crate::exasol::{Session, SessionOptions};

/// Exasol 8 schema for the partner-API replay cache and its dedup ledger.
pub const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_replay_cache",
        "CREATE TABLE IF NOT EXISTS partner_api.replay_cache (
            scope_version  VARCHAR(8)     NOT NULL,
            tenant_id      VARCHAR(64)    NOT NULL,
            principal_id   VARCHAR(64)    NOT NULL,
            route          VARCHAR(128)   NOT NULL,
            ns             VARCHAR(2)     NOT NULL,
            idem_key       VARCHAR(255)   NOT NULL,
            response       VARCHAR(2000000),
            CONSTRAINT pk_replay_cache PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key) ENABLE,
            DISTRIBUTE BY tenant_id
        )",
    ),
    (
        "0002_dedup_requests",
        "CREATE TABLE IF NOT EXISTS partner_api.dedup_requests (
            partner_id     VARCHAR(64)    NOT NULL,
            tenant_id      VARCHAR(64)    NOT NULL,
            request_key    VARCHAR(255)   NOT NULL,
            first_seen     TIMESTAMP      DEFAULT CURRENT_TIMESTAMP,
            CONSTRAINT pk_dedup_requests PRIMARY KEY (tenant_id, request_key) ENABLE,
            DISTRIBUTE BY tenant_id
        )",
    ),
    (
        "0003_rate_buckets",
        "CREATE TABLE IF NOT EXISTS partner_api.rate_buckets (
            tenant_id      VARCHAR(64)    NOT NULL,
            bucket         VARCHAR(128)   NOT NULL,
            tokens         DECIMAL(18,0)  NOT NULL,
            CONSTRAINT pk_rate_buckets PRIMARY KEY (bucket) ENABLE
        )",
    ),
];

pub async fn migrate(opts: SessionOptions) -> Result<()> {
    let mut session = Session::connect(opts).await.context("connect to exasol")?;
    session.set_query_timeout(Duration::from_secs(120));
    session
        .execute("CREATE TABLE IF NOT EXISTS partner_api.schema_history (version VARCHAR(64) PRIMARY KEY, applied_at TIMESTAMP)")
        .await?;
    for (version, ddl) in MIGRATIONS {
        let applied: Option<String> = session
            .query_one("SELECT version FROM partner_api.schema_history WHERE version = ?", &[version])
            .await?;
        if applied.is_some() {
            continue;
        }
        session.execute(ddl).await.with_context(|| format!("migration {version}"))?;
        session
            .execute_with("INSERT INTO partner_api.schema_history VALUES (?, CURRENT_TIMESTAMP)", &[version])
            .await?;
        info!(%version, "applied");
    }
    session.commit().await?;
    Ok(())
}
