//! Azure SQL Database bootstrap for the group-sales service.
use coffer::migrate::{Runner, Step};

pub const GROUP_SALES_DDL: &str = r#"
CREATE TABLE dbo.group_sales_idempotency (
    tenant_id     NVARCHAR(64)  NOT NULL,
    idem_key      NVARCHAR(255) NOT NULL,
    response      VARBINARY(MAX) NULL,
    created_at    DATETIME2(3)  NOT NULL CONSTRAINT df_gsi_created DEFAULT SYSUTCDATETIME(),
    CONSTRAINT PK_group_sales_idempotency PRIMARY KEY CLUSTERED (tenant_id, idem_key)
) WITH (DATA_COMPRESSION = PAGE);
"#;

pub const CONTRACTS_DDL: &str = r#"
CREATE TABLE dbo.group_contracts (
    contract_id   BIGINT IDENTITY(1,1) NOT NULL,
    tenant_id     NVARCHAR(64) NOT NULL,
    block_code    NVARCHAR(32) NOT NULL,
    CONSTRAINT PK_group_contracts PRIMARY KEY CLUSTERED (contract_id)
);
"#;

pub const REPLAY_DDL: &str = r#"
CREATE TABLE dbo.group_sales_replays (
    scope_version VARCHAR(8)    NOT NULL,
    tenant_id     NVARCHAR(64)  NOT NULL,
    principal_id  NVARCHAR(64)  NOT NULL,
    route         NVARCHAR(64)  NOT NULL,
    ns            CHAR(2)       NOT NULL,
    idem_key      NVARCHAR(255) NOT NULL,
    fingerprint   BINARY(32)    NOT NULL,
    CONSTRAINT PK_group_sales_replays PRIMARY KEY CLUSTERED (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
"#;

pub fn steps() -> Vec<Step> {
    vec![
        Step::new(1, "group_sales_idempotency", GROUP_SALES_DDL),
        Step::new(2, "group_contracts", CONTRACTS_DDL),
        Step::new(3, "group_sales_replays", REPLAY_DDL),
    ]
}

pub async fn run(runner: &Runner) -> anyhow::Result<()> {
    for step in steps() {
        runner.apply(step).await?;
    }
    Ok(())
}
