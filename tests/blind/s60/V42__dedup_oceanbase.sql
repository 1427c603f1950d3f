-- OceanBase 4.x (MySQL mode): payment dedup and webhook replay tables.

CREATE TABLE IF NOT EXISTS payment_dedup (
    merchant_id      VARCHAR(64)   NOT NULL,
    route            VARCHAR(96)   NOT NULL,
    idempotency_key  VARCHAR(255)  NOT NULL,
    fingerprint      BINARY(32)    NOT NULL,
    status           ENUM('in_progress', 'completed') NOT NULL,
    response         MEDIUMBLOB,
    created_at       DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (merchant_id, route, idempotency_key)
) DEFAULT CHARSET = utf8mb4
  PARTITION BY KEY(merchant_id) PARTITIONS 16;

CREATE TABLE IF NOT EXISTS webhook_replays (
    id          BIGINT        NOT NULL AUTO_INCREMENT,
    tenant_id   VARCHAR(64)   NOT NULL,
    user_id     VARCHAR(64)   NOT NULL,
    route       VARCHAR(96)   NOT NULL,
    event_id    VARCHAR(128)  NOT NULL,
    handled_at  DATETIME(6)   NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uk_webhook_replays (tenant_id, user_id, route, event_id)
) DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS idempotency_audit (
    audit_id    BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id   VARCHAR(64)   NOT NULL,
    idem_key    VARCHAR(255)  NOT NULL,
    decision    VARCHAR(16)   NOT NULL,
    logged_at   DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    KEY idx_idempotency_audit_key (tenant_id, idem_key)
) DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS outbox_events (
    event_id    VARCHAR(128)  NOT NULL PRIMARY KEY,
    tenant_id   VARCHAR(64)   NOT NULL,
    payload     JSON          NOT NULL,
    relayed_at  DATETIME(6)   NULL
) DEFAULT CHARSET = utf8mb4;
