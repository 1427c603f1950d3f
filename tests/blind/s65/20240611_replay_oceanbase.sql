-- OceanBase 4.2, MySQL-compatible tenant "ob_pay"

CREATE TABLE replay_cache (
  idem_key     VARCHAR(255) NOT NULL PRIMARY KEY,
  account_id   VARCHAR(64) NOT NULL,
  user_id      VARCHAR(64) NOT NULL,
  endpoint     VARCHAR(128) NOT NULL,
  response     MEDIUMBLOB,
  expires_at   DATETIME NOT NULL,
  KEY idx_replay_cache_account (account_id, idem_key)
) DEFAULT CHARSET = utf8mb4
  PARTITION BY KEY(idem_key) PARTITIONS 16;

CREATE TABLE replay_guard (
  id           BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  account_id   VARCHAR(64) NOT NULL,
  operation    VARCHAR(64) NOT NULL,
  idem_key     VARCHAR(255) NOT NULL,
  state        ENUM('in_progress', 'completed') NOT NULL DEFAULT 'in_progress',
  updated_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP
) DEFAULT CHARSET = utf8mb4;

CREATE UNIQUE INDEX uk_replay_guard ON replay_guard (account_id, operation, idem_key) LOCAL;

CREATE TABLE idempotency_responses (
  account_id   VARCHAR(64) NOT NULL,
  user_id      VARCHAR(64) NOT NULL,
  operation    VARCHAR(64) NOT NULL,
  ns           CHAR(2) NOT NULL,
  idem_key     VARCHAR(255) NOT NULL,
  status_code  SMALLINT NOT NULL,
  body         MEDIUMBLOB,
  UNIQUE KEY uk_idem_resp (account_id, user_id, operation, ns, idem_key)
) DEFAULT CHARSET = utf8mb4
  PARTITION BY KEY(account_id) PARTITIONS 8;

CREATE EVENT IF NOT EXISTS ev_purge_replay_cache
  ON SCHEDULE EVERY 1 HOUR
  DO DELETE FROM replay_cache WHERE expires_at < NOW();

CREATE OR REPLACE VIEW v_replay_guard_open AS
  SELECT account_id, operation, COUNT(*) AS open_claims
    FROM replay_guard
   WHERE state = 'in_progress'
   GROUP BY account_id, operation;
