-- gateway (MySQL 8): replay protection for merchant API calls

CREATE TABLE request_replays (
    id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    merchant_id   VARCHAR(64)     NOT NULL,
    replay_key    VARCHAR(255)    NOT NULL,
    http_status   SMALLINT        NOT NULL,
    body          MEDIUMBLOB      NOT NULL,
    created_at    DATETIME(6)     NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE UNIQUE INDEX request_replays_merchant_key_uq ON request_replays (merchant_id, replay_key);

CREATE INDEX request_replays_created_idx ON request_replays (created_at);

CREATE TABLE merchant_api_keys (
    id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    merchant_id  VARCHAR(64)     NOT NULL,
    key_hash     BINARY(32)      NOT NULL,
    UNIQUE KEY merchant_api_keys_hash_uq (key_hash)
) ENGINE = InnoDB;

CREATE TABLE merchant_webhook_endpoints (
    id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    merchant_id  VARCHAR(64)     NOT NULL,
    url          VARCHAR(2048)   NOT NULL,
    created_at   DATETIME(6)     NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB;
