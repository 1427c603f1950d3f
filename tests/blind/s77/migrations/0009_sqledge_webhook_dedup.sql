-- Azure SQL Edge on the on-mountain edge gateways (T-SQL).

CREATE TABLE dbo.gate_dedup (
    dedup_key      NVARCHAR(200)   NOT NULL CONSTRAINT PK_gate_dedup PRIMARY KEY CLUSTERED,
    gate_id        NVARCHAR(64)    NOT NULL,
    seen_at        DATETIME2(3)    NOT NULL DEFAULT SYSUTCDATETIME()
);
GO

CREATE TABLE dbo.pos_idempotency (
    id             BIGINT IDENTITY(1,1) NOT NULL CONSTRAINT PK_pos_idempotency PRIMARY KEY CLUSTERED,
    tenant_id      NVARCHAR(64)    NOT NULL,
    api_key_id     NVARCHAR(64)    NOT NULL,
    operation      NVARCHAR(64)    NOT NULL,
    idem_key       NVARCHAR(255)   NOT NULL,
    response       VARBINARY(MAX)  NULL,
    CONSTRAINT UQ_pos_idempotency_scope UNIQUE NONCLUSTERED (tenant_id, api_key_id, operation, idem_key)
);
GO

CREATE TABLE dbo.pos_terminal (
    terminal_id    NVARCHAR(64)    NOT NULL PRIMARY KEY,
    tenant_id      NVARCHAR(64)    NOT NULL
);
GO

CREATE UNIQUE NONCLUSTERED INDEX UX_pos_idempotency_key ON dbo.pos_idempotency (idem_key);
GO
