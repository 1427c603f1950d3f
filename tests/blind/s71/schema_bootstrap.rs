//! Bootstraps the settlement database on SQL Server 2022. Ledger tables keep
//! a cryptographic history the regional auditor can verify.

use hopper::rel::Rel;

pub const LEDGER_SCHEMA: &str = r#"
CREATE SCHEMA fares;
GO
CREATE TABLE fares.capture_idempotency
(
    tenant_id     NVARCHAR(64)   NOT NULL,
    user_id       NVARCHAR(64)   NOT NULL,
    route         NVARCHAR(64)   NOT NULL,
    idem_key      NVARCHAR(255)  NOT NULL,
    fingerprint   BINARY(32)     NOT NULL,
    status        NVARCHAR(16)   NOT NULL,
    response      VARBINARY(MAX) NULL,
    CONSTRAINT pk_capture_idempotency PRIMARY KEY CLUSTERED (tenant_id, user_id, route, idem_key)
)
WITH (SYSTEM_VERSIONING = ON, LEDGER = ON);
GO
CREATE TABLE fares.settlement_replay
(
    replay_key    NVARCHAR(255)  NOT NULL,
    tenant_id     NVARCHAR(64)   NOT NULL,
    batch_ref     NVARCHAR(64)   NOT NULL,
    response      VARBINARY(MAX) NULL,
    CONSTRAINT pk_settlement_replay PRIMARY KEY NONCLUSTERED (replay_key)
)
WITH (LEDGER = ON (APPEND_ONLY = ON));
GO
CREATE TABLE fares.settlement_batches
(
    batch_ref     NVARCHAR(64)   NOT NULL CONSTRAINT pk_settlement_batches PRIMARY KEY,
    tenant_id     NVARCHAR(64)   NOT NULL,
    period        CHAR(7)        NOT NULL,
    net_minor     BIGINT         NOT NULL
)
WITH (LEDGER = ON);
"#;

pub async fn bootstrap(rel: &Rel) -> Result<(), hopper::Error> {
    for batch in LEDGER_SCHEMA.split("\nGO\n") {
        let batch = batch.trim();
        if !batch.is_empty() {
            rel.run_script(batch).await?;
        }
    }
    Ok(())
}
