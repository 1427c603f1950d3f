-- Deduplication tables for the integrations service (SQL Server 2019).

CREATE TABLE dbo.webhook_dedup (
    idempotency_key NVARCHAR(255)  NOT NULL,
    tenant_id       NVARCHAR(64)   NOT NULL,
    received_at     DATETIME2(3)   NOT NULL CONSTRAINT df_webhook_dedup_received DEFAULT SYSUTCDATETIME(),
    CONSTRAINT pk_webhook_dedup PRIMARY KEY CLUSTERED (idempotency_key)
);
GO

CREATE TABLE dbo.dedup_requests (
    org_id          NVARCHAR(64)   NOT NULL,
    api_key_id      NVARCHAR(64)   NOT NULL,
    operation       NVARCHAR(64)   NOT NULL,
    idempotency_key NVARCHAR(255)  NOT NULL,
    fingerprint     VARBINARY(32)  NOT NULL,
    response        VARBINARY(MAX) NULL,
    CONSTRAINT pk_dedup_requests PRIMARY KEY CLUSTERED (org_id, api_key_id, operation, idempotency_key)
);
GO

CREATE NONCLUSTERED INDEX ix_dedup_requests_key ON dbo.dedup_requests (idempotency_key);
GO
