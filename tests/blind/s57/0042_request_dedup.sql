-- TiDB 7.5 (MySQL compatible)

CREATE TABLE request_dedup (
    tenant_id     VARCHAR(64)   NOT NULL,
    user_id       VARCHAR(64)   NOT NULL,
    route         VARCHAR(128)  NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    fingerprint   BINARY(32)    NOT NULL,
    state         ENUM('in_progress', 'completed') NOT NULL,
    response      MEDIUMBLOB    NULL,
    created_at    DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (tenant_id, idem_key) CLUSTERED,
    KEY idx_request_dedup_created (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE replay_responses (
    merchant_id      BIGINT        NOT NULL,
    api_key_id       BIGINT        NOT NULL,
    endpoint         VARCHAR(128)  NOT NULL,
    idempotency_key  VARCHAR(255)  NOT NULL,
    status_code      SMALLINT      NOT NULL,
    body             MEDIUMBLOB    NOT NULL,
    stored_at        DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (merchant_id, api_key_id, endpoint, idempotency_key) NONCLUSTERED
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE outbox_events (
    event_id      BIGINT        NOT NULL AUTO_RANDOM,
    aggregate_id  VARCHAR(64)   NOT NULL,
    payload       JSON          NOT NULL,
    published     TINYINT(1)    NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id) CLUSTERED
);

CREATE INDEX idx_outbox_unpublished ON outbox_events (published, event_id);

ALTER TABLE replay_responses
    ADD COLUMN content_type VARCHAR(128) NOT NULL DEFAULT 'application/json';

ALTER TABLE request_dedup SET TIFLASH REPLICA 1;
