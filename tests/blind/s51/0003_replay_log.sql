-- 0003: replay log for the ledger (MySQL 8).

CREATE TABLE replay_log (
  id          BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  tenant_id   VARCHAR(64)  NOT NULL,
  user_id     VARCHAR(64)  NOT NULL,
  idem_key    VARCHAR(255) NOT NULL,
  response    MEDIUMTEXT,
  created_at  DATETIME     NOT NULL DEFAULT CURRENT_TIMESTAMP
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE UNIQUE INDEX replay_log_key_uq ON replay_log (tenant_id, user_id, idem_key);

CREATE INDEX replay_log_created_idx ON replay_log (created_at);

CREATE TABLE ledger_entries (
  id          BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  tenant_id   VARCHAR(64) NOT NULL,
  amount      BIGINT NOT NULL
) ENGINE=InnoDB;
