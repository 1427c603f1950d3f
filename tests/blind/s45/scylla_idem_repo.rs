use scylla::client::session::Session;
use scylla::client::session_builder::SessionBuilder;

pub const IDEMPOTENCY_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS payments.idempotency_keys (
    tenant_id text,
    idem_key text,
    status text,
    response blob,
    created_at timestamp,
    PRIMARY KEY ((tenant_id), idem_key)
) WITH default_time_to_live = 86400
"#;

pub const LEASES_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS payments.settlement_leases (
    batch_id text PRIMARY KEY,
    holder text,
    expires_at timestamp
)
"#;

pub struct IdempotencyRepo {
    session: Session,
}

impl IdempotencyRepo {
    pub async fn connect(nodes: &[&str]) -> Result<Self, RepoError> {
        let session = SessionBuilder::new().known_nodes(nodes).build().await?;
        session.query_unpaged(IDEMPOTENCY_DDL, &[]).await?;
        session.query_unpaged(LEASES_DDL, &[]).await?;
        Ok(IdempotencyRepo { session })
    }

    /// Returns true when this caller won the key.
    pub async fn reserve_key(&self, tenant_id: &str, idempotency_key: &str) -> Result<bool, RepoError> {
        let res = self
            .session
            .query_unpaged("INSERT INTO payments.idempotency_keys (tenant_id, idem_key, status) VALUES (?, ?, 'in_progress') IF NOT EXISTS", (tenant_id, idempotency_key))
            .await?;
        Ok(res.into_rows_result()?.first_row::<(bool,)>()?.0)
    }

    pub async fn lease_batch(&self, batch_id: &str, holder: &str) -> Result<bool, RepoError> {
        let res = self
            .session
            .query_unpaged("INSERT INTO payments.settlement_leases (batch_id, holder, expires_at) VALUES (?, ?, toTimestamp(now())) IF NOT EXISTS USING TTL 60", (batch_id, holder))
            .await?;
        Ok(res.into_rows_result()?.first_row::<(bool,)>()?.0)
    }
}
