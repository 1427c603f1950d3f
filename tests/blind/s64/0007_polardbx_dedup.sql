-- PolarDB-X 2.4 (MySQL 8.0 compatible, AUTO mode database).
-- Partitioned by tenant so one merchant's keys live on one data node.

CREATE TABLE IF NOT EXISTS `idempotency_claims` (
  `tenant_id`     VARCHAR(64)   NOT NULL,
  `principal_id`  VARCHAR(64)   NOT NULL,
  `route`         VARCHAR(96)   NOT NULL,
  `idem_key`      VARCHAR(255)  NOT NULL,
  `fingerprint`   BINARY(32)    NOT NULL,
  `state`         ENUM('in_progress','completed') NOT NULL DEFAULT 'in_progress',
  `response`      MEDIUMBLOB    NULL,
  `created_at`    DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `expires_at`    DATETIME(3)   NOT NULL,
  PRIMARY KEY (`tenant_id`, `principal_id`, `route`, `idem_key`)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4
PARTITION BY KEY (`tenant_id`) PARTITIONS 16;

CREATE TABLE IF NOT EXISTS `dedup_refund_requests` (
  `id`            BIGINT        NOT NULL AUTO_INCREMENT,
  `merchant_id`   VARCHAR(64)   NOT NULL,
  `idem_key`      VARCHAR(255)  NOT NULL,
  `refund_id`     VARCHAR(64)   NULL,
  `created_at`    DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_dedup_refund` (`merchant_id`, `idem_key`)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4
PARTITION BY KEY (`id`) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS `replay_jobs` (
  `job_id`        VARCHAR(64)   NOT NULL,
  `tenant_id`     VARCHAR(64)   NOT NULL,
  `attempts`      INT           NOT NULL DEFAULT 0,
  `next_run_at`   DATETIME(3)   NOT NULL,
  PRIMARY KEY (`job_id`),
  KEY `ix_replay_jobs_tenant` (`tenant_id`, `next_run_at`)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Housekeeping: purge expired claims every ten minutes.
CREATE EVENT IF NOT EXISTS `ev_purge_idempotency_claims`
  ON SCHEDULE EVERY 10 MINUTE
  DO DELETE FROM `idempotency_claims` WHERE `expires_at` < NOW(3) LIMIT 5000;

ALTER TABLE `dedup_refund_requests` ADD INDEX `ix_dedup_refund_created` (`created_at`);
