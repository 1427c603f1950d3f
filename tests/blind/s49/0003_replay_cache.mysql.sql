-- 0003: replay cache for the checkout service (MySQL 8)
CREATE TABLE replay_cache (
    id               BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    merchant_id      VARCHAR(64) NOT NULL,
    idempotency_key  VARCHAR(255) NOT NULL,
    response         MEDIUMBLOB,
    created_at       DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    UNIQUE KEY uq_replay_cache_key (merchant_id, idempotency_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE replay_cache_stats (
    day        DATE NOT NULL PRIMARY KEY,
    hits       BIGINT NOT NULL DEFAULT 0,
    misses     BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

CREATE INDEX ix_replay_cache_created ON replay_cache (created_at);
