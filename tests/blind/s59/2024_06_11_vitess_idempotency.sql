-- PlanetScale / Vitess (MySQL 8.0 compatible); no foreign keys by convention.

CREATE TABLE idempotency_keys (
  idem_key        VARCHAR(255)    NOT NULL PRIMARY KEY,
  merchant_id     VARCHAR(64)     NOT NULL,
  user_id         VARCHAR(64)     NOT NULL,
  operation       VARCHAR(64)     NOT NULL,
  fingerprint     BINARY(32)      NOT NULL,
  state           ENUM('in_progress','completed') NOT NULL DEFAULT 'in_progress',
  response        MEDIUMBLOB      NULL,
  created_at      DATETIME(6)     NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  KEY idx_idem_created (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE merchant_replays (
  merchant_id     VARCHAR(64)     NOT NULL,
  user_id         VARCHAR(64)     NOT NULL,
  operation       VARCHAR(64)     NOT NULL,
  replay_key      VARCHAR(255)    NOT NULL,
  status_code     SMALLINT        NOT NULL,
  body            MEDIUMBLOB      NOT NULL,
  created_at      DATETIME(6)     NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (merchant_id, user_id, operation, replay_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE api_sessions (
  token_hash      BINARY(32)      NOT NULL PRIMARY KEY,
  merchant_id     VARCHAR(64)     NOT NULL,
  user_id         VARCHAR(64)     NOT NULL,
  expires_at      DATETIME(6)     NOT NULL
) ENGINE=InnoDB;

CREATE TABLE payout_batches (
  batch_id        BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  merchant_id     VARCHAR(64)     NOT NULL,
  created_by      VARCHAR(64)     NOT NULL,
  item_count      INT UNSIGNED    NOT NULL DEFAULT 0,
  total_minor     BIGINT          NOT NULL DEFAULT 0,
  state           VARCHAR(16)     NOT NULL DEFAULT 'open',
  created_at      DATETIME(6)     NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  KEY idx_batches_merchant (merchant_id, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

ALTER TABLE merchant_replays ADD INDEX idx_replays_created (created_at);
