-- MariaDB 11.4 on a three-node Galera cluster (housing and dining).
-- Galera needs an explicit primary key on every InnoDB table, so each table
-- gets a surrogate id and the idempotency scope is a unique key.
SET SESSION wsrep_OSU_method = 'TOI';

CREATE TABLE idempotency_requests (
  id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  tenant_id     VARCHAR(64)     NOT NULL,
  principal_id  VARCHAR(128)    NOT NULL,
  route         VARCHAR(255)    NOT NULL,
  idem_key      VARCHAR(255)    NOT NULL,
  response_id   CHAR(26)        NULL,
  fingerprint   BINARY(32)      NOT NULL,
  state         ENUM('in_progress', 'completed') NOT NULL DEFAULT 'in_progress',
  created_at    DATETIME(6)     NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  PRIMARY KEY (id),
  UNIQUE KEY uq_idem_scope (tenant_id, principal_id, route, idem_key),
  UNIQUE KEY uq_idem_response (response_id),
  KEY ix_idem_created (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin
  WITH SYSTEM VERSIONING;

CREATE TABLE replay_tokens (
  id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  tenant_id     VARCHAR(64)     NOT NULL,
  principal_id  VARCHAR(128)    NOT NULL,
  idem_key      VARCHAR(255)    NOT NULL,
  body          MEDIUMBLOB      NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uq_replay_tokens (tenant_id, principal_id, idem_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE laundry_cycles (
  cycle_id      CHAR(26)        NOT NULL,
  tenant_id     VARCHAR(64)     NOT NULL,
  machine_id    VARCHAR(64)     NOT NULL,
  started_at    DATETIME(6)     NOT NULL,
  PRIMARY KEY (cycle_id)
) ENGINE = InnoDB;
