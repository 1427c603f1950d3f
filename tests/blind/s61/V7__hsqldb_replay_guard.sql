-- HSQLDB 2.7 (file database of the on-premise connector).

SET DATABASE SQL SYNTAX PGS TRUE;

CREATE CACHED TABLE replay_guard (
    replay_key      VARCHAR(200)    PRIMARY KEY,
    tenant_id       VARCHAR(64)     NOT NULL,
    api_key_id      VARCHAR(64)     NOT NULL,
    endpoint        VARCHAR(128)    NOT NULL,
    response        VARBINARY(65536),
    created_at      TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL
);

CREATE CACHED TABLE idempotency_entries (
    tenant_id       VARCHAR(64)     NOT NULL,
    api_key_id      VARCHAR(64)     NOT NULL,
    endpoint        VARCHAR(128)    NOT NULL,
    idempotency_key VARCHAR(255)    NOT NULL,
    fingerprint     BINARY(32)      NOT NULL,
    state           VARCHAR(12)     DEFAULT 'in_progress' NOT NULL,
    response        VARBINARY(65536),
    expires_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_idempotency_entries PRIMARY KEY (tenant_id, api_key_id, endpoint, idempotency_key)
);

CREATE CACHED TABLE webhook_inbox (
    event_id        VARCHAR(64)     NOT NULL,
    source          VARCHAR(32)     NOT NULL,
    payload         CLOB(1M),
    received_at     TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL,
    CONSTRAINT pk_webhook_inbox PRIMARY KEY (event_id)
);

CREATE INDEX ix_idempotency_entries_expiry ON idempotency_entries (expires_at);

CREATE VIEW idempotency_pending AS
    SELECT tenant_id, api_key_id, endpoint, COUNT(*) AS pending
    FROM idempotency_entries
    WHERE state = 'in_progress'
    GROUP BY tenant_id, api_key_id, endpoint;

CREATE PROCEDURE purge_expired_idempotency()
    MODIFIES SQL DATA
    BEGIN ATOMIC
        DELETE FROM idempotency_entries WHERE expires_at < CURRENT_TIMESTAMP;
        DELETE FROM replay_guard WHERE created_at < CURRENT_TIMESTAMP - INTERVAL '2' DAY;
    END;
