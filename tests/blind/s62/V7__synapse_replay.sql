-- Azure Synapse Analytics, dedicated SQL pool.
-- Constraints must be NONCLUSTERED and NOT ENFORCED here; the loader keeps rows
-- unique with MERGE, the constraints document the key for the optimizer.

CREATE TABLE dbo.idempotency_ledger
(
    tenant_id     NVARCHAR(64)   NOT NULL,
    principal_id  NVARCHAR(64)   NOT NULL,
    route         NVARCHAR(96)   NOT NULL,
    idem_key      NVARCHAR(255)  NOT NULL,
    status        NVARCHAR(16)   NOT NULL,
    response_json NVARCHAR(4000) NULL,
    created_at    DATETIME2      NOT NULL,
    CONSTRAINT pk_idempotency_ledger PRIMARY KEY NONCLUSTERED (tenant_id, principal_id, route, idem_key) NOT ENFORCED
)
WITH
(
    DISTRIBUTION = HASH (tenant_id),
    CLUSTERED COLUMNSTORE INDEX
);

CREATE TABLE dbo.replay_snapshots
(
    principal_id  NVARCHAR(64)   NOT NULL,
    route         NVARCHAR(96)   NOT NULL,
    replay_key    NVARCHAR(255)  NOT NULL,
    tenant_id     NVARCHAR(64)   NOT NULL,
    snapshot      VARBINARY(8000) NULL,
    taken_at      DATETIME2      NOT NULL,
    CONSTRAINT uq_replay_snapshots UNIQUE NONCLUSTERED (principal_id, route, replay_key) NOT ENFORCED
)
WITH
(
    DISTRIBUTION = ROUND_ROBIN,
    HEAP
);

CREATE TABLE dbo.replay_checkpoints
(
    tenant_id     NVARCHAR(64)   NOT NULL,
    principal_id  NVARCHAR(64)   NOT NULL,
    route         NVARCHAR(96)   NOT NULL,
    replay_key    NVARCHAR(255)  NOT NULL,
    checkpoint_at DATETIME2      NOT NULL,
    CONSTRAINT pk_replay_checkpoints PRIMARY KEY NONCLUSTERED (tenant_id, principal_id, route, replay_key) NOT ENFORCED
)
WITH
(
    DISTRIBUTION = HASH (tenant_id),
    CLUSTERED COLUMNSTORE INDEX
);

CREATE TABLE dbo.request_audit
(
    request_key   NVARCHAR(255)  NOT NULL,
    tenant_id     NVARCHAR(64)   NOT NULL,
    path          NVARCHAR(256)  NOT NULL,
    status_code   SMALLINT       NOT NULL,
    logged_at     DATETIME2      NOT NULL,
    CONSTRAINT pk_request_audit PRIMARY KEY NONCLUSTERED (request_key) NOT ENFORCED
)
WITH
(
    DISTRIBUTION = HASH (request_key),
    CLUSTERED COLUMNSTORE INDEX
);
