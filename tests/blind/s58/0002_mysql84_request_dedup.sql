-- MySQL 8.4 LTS, utf8mb4. Deduplication for the merchant API and the hosted checkout.

CREATE TABLE IF NOT EXISTS request_dedup (
  id            BIGINT UNSIGNED  NOT NULL AUTO_INCREMENT,
  merchant_id   BIGINT UNSIGNED  NOT NULL,
  api_key_id    BIGINT UNSIGNED  NOT NULL,
  endpoint      VARCHAR(128)     NOT NULL,
  request_key   VARCHAR(255)     NOT NULL,
  body_sha256   BINARY(32)       NOT NULL,
  state         ENUM('in_progress','completed') NOT NULL DEFAULT 'in_progress',
  response      JSON             NULL,
  created_at    DATETIME(6)      NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (id),
  UNIQUE KEY uq_request_dedup_scope (merchant_id, api_key_id, endpoint, request_key),
  KEY ix_request_dedup_created (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;

CREATE TABLE IF NOT EXISTS checkout_dedup (
  dedup_key     VARCHAR(255)     NOT NULL PRIMARY KEY,
  merchant_id   BIGINT UNSIGNED  NOT NULL,
  session_ref   VARCHAR(64)      NOT NULL,
  response      JSON             NULL,
  created_at    DATETIME(6)      NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  KEY ix_checkout_dedup_merchant (merchant_id, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE EVENT IF NOT EXISTS ev_purge_request_dedup
  ON SCHEDULE EVERY 1 HOUR
  DO DELETE FROM request_dedup WHERE created_at < NOW(6) - INTERVAL 1 DAY LIMIT 50000;

CREATE TABLE IF NOT EXISTS merchant_api_keys (
  id            BIGINT UNSIGNED  NOT NULL AUTO_INCREMENT,
  merchant_id   BIGINT UNSIGNED  NOT NULL,
  key_prefix    CHAR(8)          NOT NULL,
  key_hash      BINARY(32)       NOT NULL,
  revoked_at    DATETIME(6)      NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uq_merchant_api_keys_prefix (key_prefix)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

ALTER TABLE request_dedup
  ADD COLUMN completed_at DATETIME(6) NULL AFTER response;
