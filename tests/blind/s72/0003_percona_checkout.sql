-- Percona XtraDB Cluster 8.0; pxc_strict_mode = ENFORCING requires a
-- primary key on every table.

CREATE TABLE idempotency_responses (
  id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  merchant_id   VARCHAR(64)     NOT NULL,
  operation     VARCHAR(64)     NOT NULL,
  client_key    VARCHAR(255)    NOT NULL,
  fingerprint   BINARY(32)      NOT NULL,
  response      MEDIUMBLOB      NULL,
  created_at    DATETIME(6)     NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (id),
  UNIQUE KEY uq_idem_op (merchant_id, operation, client_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_bin;

CREATE TABLE payment_dedup (
  idempotency_key  VARCHAR(255)  NOT NULL PRIMARY KEY,
  payment_id       CHAR(26)      NOT NULL,
  seen_at          DATETIME(6)   NOT NULL
) ENGINE=InnoDB;

CREATE TABLE refund_replay_log (
  account_id  VARCHAR(64)   NOT NULL,
  user_id     VARCHAR(64)   NOT NULL,
  endpoint    VARCHAR(128)  NOT NULL,
  idem_key    VARCHAR(255)  NOT NULL,
  replayed_at DATETIME(6)   NOT NULL,
  PRIMARY KEY (account_id, user_id, endpoint, idem_key)
) ENGINE=InnoDB;

CREATE TABLE checkout_sessions (
  session_id  CHAR(36)     NOT NULL,
  cart_json   JSON         NOT NULL,
  PRIMARY KEY (session_id)
) ENGINE=InnoDB;
