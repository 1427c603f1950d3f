-- SQL Server Compact 4.0: local database of the exam-room tablets.
-- Statements are separated by GO for the tablet's migration runner.

CREATE TABLE replay_log (
    idem_key      NVARCHAR(128) NOT NULL,
    route         NVARCHAR(128) NOT NULL,
    response      IMAGE,
    created_at    DATETIME      NOT NULL DEFAULT GETDATE(),
    CONSTRAINT PK_replay_log PRIMARY KEY (idem_key, route)
);
GO

CREATE TABLE dedup_sync (
    sync_id       INT IDENTITY(1,1) NOT NULL,
    org_id        NVARCHAR(36)  NOT NULL,
    user_id       NVARCHAR(36)  NOT NULL,
    idem_key      NVARCHAR(128) NOT NULL,
    payload       NTEXT,
    CONSTRAINT PK_dedup_sync PRIMARY KEY (sync_id)
);
GO

CREATE UNIQUE INDEX UX_dedup_sync_key ON dedup_sync (org_id, idem_key);
GO

CREATE TABLE idempotency_outbox (
    org_id        NVARCHAR(36)  NOT NULL,
    user_id       NVARCHAR(36)  NOT NULL,
    operation     NVARCHAR(64)  NOT NULL,
    idem_key      NVARCHAR(128) NOT NULL,
    body          NTEXT,
    CONSTRAINT PK_idempotency_outbox PRIMARY KEY (org_id, user_id, operation, idem_key)
);
GO

CREATE INDEX IX_idempotency_outbox_key ON idempotency_outbox (idem_key);
GO
