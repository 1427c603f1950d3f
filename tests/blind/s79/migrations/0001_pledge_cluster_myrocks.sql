-- 0001: idempotency and dedup tables on the pledge cluster.
-- Dialect: Percona Server 8.0 with the MyRocks storage engine (ENGINE=ROCKSDB).
-- Every index names its RocksDB column family in the index COMMENT.

SET SESSION rocksdb_bulk_load = 0;
SET SESSION rocksdb_lock_wait_timeout = 5;

CREATE TABLE pledge_idempotency (
  tenant_id    VARBINARY(64)   NOT NULL,
  user_id      VARBINARY(64)   NOT NULL,
  route        VARCHAR(128)    NOT NULL,
  idem_key     VARBINARY(255)  NOT NULL,
  fingerprint  BINARY(32)      NOT NULL,
  status       ENUM('in_progress', 'completed') NOT NULL,
  response     MEDIUMBLOB,
  created_at   TIMESTAMP       NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (tenant_id, idem_key) COMMENT 'cfname=idem_cf',
  KEY ix_pledge_idem_created (created_at) COMMENT 'cfname=rev:idem_created_cf'
) ENGINE=ROCKSDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE dedup_callbacks (
  id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  account_id   VARBINARY(64)   NOT NULL,
  api_key_id   VARBINARY(64)   NOT NULL,
  route        VARCHAR(128)    NOT NULL,
  idem_key     VARBINARY(255)  NOT NULL,
  fingerprint  BINARY(32)      NOT NULL,
  response     MEDIUMBLOB,
  created_at   TIMESTAMP       NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (id) COMMENT 'cfname=dedup_pk_cf',
  UNIQUE KEY uk_dedup_callbacks_scope (account_id, api_key_id, route, idem_key) COMMENT 'cfname=dedup_uk_cf'
) ENGINE=ROCKSDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE dedup_gift_claims (
  gift_claim_id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  tenant_id     VARBINARY(64)   NOT NULL,
  user_id       VARBINARY(64)   NOT NULL,
  route         VARCHAR(128)    NOT NULL,
  idem_key      VARBINARY(255)  NOT NULL,
  sku           VARCHAR(64)     NOT NULL,
  claimed_at    TIMESTAMP       NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (gift_claim_id) COMMENT 'cfname=gift_pk_cf',
  UNIQUE KEY uk_dedup_gift_claims (idem_key, route) COMMENT 'cfname=gift_uk_cf'
) ENGINE=ROCKSDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE donor_sessions (
  token_hash   BINARY(32)      NOT NULL PRIMARY KEY COMMENT 'cfname=session_cf',
  tenant_id    VARBINARY(64)   NOT NULL,
  user_id      VARBINARY(64)   NOT NULL,
  expires_at   TIMESTAMP       NOT NULL
) ENGINE=ROCKSDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin TTL_DURATION=86400 TTL_COL=expires_at;
