CREATE TABLE `replay_guard` (
  `account_id` varchar(64) NOT NULL,
  `user_id` varchar(64) NOT NULL,
  `request_key` varchar(255) NOT NULL,
  `body` mediumblob,
  UNIQUE KEY `uq_replay` (`account_id`, `user_id`, `request_key`)
) ENGINE=InnoDB;

CREATE TABLE `job_runs` (
  `job_key` varchar(255) NOT NULL,
  PRIMARY KEY (`job_key`)
) ENGINE=InnoDB;
