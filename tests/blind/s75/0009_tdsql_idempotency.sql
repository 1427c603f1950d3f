-- TDSQL (distributed MySQL 8.0 kernel) migration for the partner gateway.
-- Every table in a distributed instance needs a shardkey; the shardkey
-- column must be part of every primary and unique key.

CREATE TABLE `partner_idempotency` (
  `id`           BIGINT       NOT NULL AUTO_INCREMENT,
  `account_id`   VARCHAR(64)  NOT NULL,
  `client_id`    VARCHAR(64)  NOT NULL,
  `operation`    VARCHAR(128) NOT NULL,
  `idem_key`     VARCHAR(255) NOT NULL,
  `status`       ENUM('in_progress', 'completed') NOT NULL,
  `response`     MEDIUMBLOB,
  `created_at`   DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`id`, `account_id`),
  UNIQUE KEY `uk_partner_idem` (`account_id`, `client_id`, `operation`, `idem_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 shardkey=account_id;

CREATE TABLE `settlement_replay` (
  `account_id`   VARCHAR(64)  NOT NULL,
  `idem_key`     VARCHAR(255) NOT NULL,
  `operation`    VARCHAR(128) NOT NULL,
  `response`     MEDIUMBLOB,
  PRIMARY KEY (`account_id`, `idem_key`, `operation`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 shardkey=account_id;

CREATE TABLE `promoter_contacts` (
  `account_id`   VARCHAR(64)  NOT NULL,
  `email`        VARCHAR(255) NOT NULL,
  PRIMARY KEY (`account_id`, `email`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 shardkey=account_id;

CREATE INDEX `ix_partner_idem_created` ON `partner_idempotency` (`created_at`);
