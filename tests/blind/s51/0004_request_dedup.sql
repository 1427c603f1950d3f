-- 0004: request dedup for the partner API and the SQL Server side table
-- used by the reporting warehouse.

CREATE TABLE IF NOT EXISTS request_dedup (
    tenant_id    TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    endpoint     TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    response     TEXT,
    UNIQUE (tenant_id, user_id, endpoint, idem_key)
);

CREATE TABLE Idempotency_Requests (
    IdemKey     NVARCHAR(255) NOT NULL,
    OrgId       NVARCHAR(64)  NOT NULL,
    Response    NVARCHAR(MAX) NULL,
    CONSTRAINT PK_Idempotency_Requests PRIMARY KEY CLUSTERED (OrgId, IdemKey)
);
