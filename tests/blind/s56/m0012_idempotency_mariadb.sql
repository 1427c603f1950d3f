-- m0012: idempotency tables for the billing API (MariaDB 10.11).

CREATE TABLE IF NOT EXISTS idempotency_entries (
    id          BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    account_id  VARCHAR(64)     NOT NULL,
    endpoint    VARCHAR(96)     NOT NULL,
    idem_key    VARCHAR(255)    NOT NULL,
    response    MEDIUMBLOB      NULL,
    created_at  TIMESTAMP       NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (id),
    UNIQUE KEY uq_idempotency_entries (account_id, endpoint, idem_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS idempotency_attempts (
    id          BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    account_id  VARCHAR(64)     NOT NULL,
    user_id     VARCHAR(64)     NOT NULL,
    endpoint    VARCHAR(96)     NOT NULL,
    idem_key    VARCHAR(255)    NOT NULL,
    fingerprint BINARY(32)      NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uq_idempotency_attempts (account_id, user_id, endpoint, idem_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
