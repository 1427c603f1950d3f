-- MySQL 8: request de-duplication for the checkout API.
CREATE TABLE `dedup_requests` (
  `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  `merchant_id` VARCHAR(64) NOT NULL,
  `request_key` VARCHAR(255) NOT NULL,
  `status` ENUM('in_progress','completed') NOT NULL,
  `response` MEDIUMBLOB NULL,
  `created_at` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`id`),
  UNIQUE KEY `uq_dedup_merchant_key` (`merchant_id`, `request_key`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE `merchants` (
  `merchant_id` VARCHAR(64) NOT NULL,
  `name` VARCHAR(255) NOT NULL,
  PRIMARY KEY (`merchant_id`)
) ENGINE=InnoDB;
