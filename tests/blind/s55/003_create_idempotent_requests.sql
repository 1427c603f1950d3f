-- MySQL 8 schema for the orders service

CREATE TABLE `request_log` (
  `request_id` CHAR(36) NOT NULL,
  `account_id` BIGINT UNSIGNED NOT NULL,
  `method` VARCHAR(8) NOT NULL,
  `path` VARCHAR(255) NOT NULL,
  `status` SMALLINT NOT NULL,
  `logged_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`request_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE `idempotent_requests` (
  `account_id` BIGINT UNSIGNED NOT NULL,
  `user_id` BIGINT UNSIGNED NOT NULL,
  `request_key` VARCHAR(255) NOT NULL,
  `fingerprint` BINARY(32) NOT NULL,
  `state` ENUM('in_progress', 'completed') NOT NULL,
  `response` MEDIUMBLOB NULL,
  `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`account_id`, `user_id`, `request_key`),
  KEY `idx_created` (`created_at`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE `order_dedup` (
  `account_id` BIGINT UNSIGNED NOT NULL,
  `user_id` BIGINT UNSIGNED NOT NULL,
  `action` VARCHAR(64) NOT NULL,
  `request_key` VARCHAR(255) NOT NULL,
  `order_id` BIGINT UNSIGNED NOT NULL,
  UNIQUE KEY `uq_order_dedup` (`account_id`, `user_id`, `action`, `request_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
