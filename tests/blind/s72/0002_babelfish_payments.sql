-- Babelfish for Aurora PostgreSQL 15, T-SQL endpoint, database "payments".
USE payments;
GO

CREATE TABLE dbo.dedup_requests (
    tenant_id      NVARCHAR(64)    NOT NULL,
    idem_key       NVARCHAR(255)   NOT NULL,
    response_body  VARBINARY(MAX)  NULL,
    status_code    SMALLINT        NOT NULL,
    created_at     DATETIME2       NOT NULL CONSTRAINT DF_dedup_created DEFAULT SYSUTCDATETIME(),
    CONSTRAINT PK_dedup_requests PRIMARY KEY CLUSTERED (tenant_id, idem_key)
);
GO

CREATE TABLE dbo.replay_windows (
    tenant_id     NVARCHAR(64)   NOT NULL,
    principal_id  NVARCHAR(64)   NOT NULL,
    route         NVARCHAR(128)  NOT NULL,
    idem_key      NVARCHAR(255)  NOT NULL,
    window_end    DATETIME2      NOT NULL,
    CONSTRAINT PK_replay_windows PRIMARY KEY NONCLUSTERED (tenant_id, principal_id, route, idem_key)
);
GO

CREATE TABLE dbo.merchants (
    merchant_id  NVARCHAR(64)   NOT NULL PRIMARY KEY,
    legal_name   NVARCHAR(200)  NOT NULL,
    onboarded_at DATETIME2      NULL
);
GO

CREATE INDEX IX_dedup_requests_created ON dbo.dedup_requests (created_at);
GO
