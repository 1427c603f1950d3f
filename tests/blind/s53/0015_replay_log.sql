-- MySQL 8: marketplace seller API.

CREATE TABLE replay_log (
  id               BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  workspace_id     BIGINT UNSIGNED NOT NULL,
  user_id          BIGINT UNSIGNED NOT NULL,
  endpoint         VARCHAR(128)    NOT NULL,
  idempotency_key  VARCHAR(255)    NOT NULL,
  response_status  SMALLINT        NULL,
  response_body    MEDIUMBLOB      NULL,
  created_at       DATETIME(3)     NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE UNIQUE INDEX replay_log_key_uq ON replay_log (idempotency_key);
CREATE INDEX replay_log_workspace_idx ON replay_log (workspace_id, created_at);

CREATE TABLE idempotency_requests (
  id          BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  org_id      BIGINT UNSIGNED NOT NULL,
  caller_id   BIGINT UNSIGNED NOT NULL,
  operation   VARCHAR(64)     NOT NULL,
  idem_key    VARCHAR(255)    NOT NULL,
  state       ENUM('in_progress', 'completed') NOT NULL,
  response    MEDIUMBLOB      NULL,
  PRIMARY KEY (id),
  UNIQUE KEY idempotency_requests_scope_uq (org_id, caller_id, operation, idem_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE webhook_deliveries (
  delivery_id  VARCHAR(64)  NOT NULL PRIMARY KEY,
  endpoint_id  BIGINT       NOT NULL,
  attempts     INT          NOT NULL DEFAULT 0,
  last_status  SMALLINT     NULL
) ENGINE=InnoDB;
