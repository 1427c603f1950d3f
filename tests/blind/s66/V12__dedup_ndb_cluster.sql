-- MySQL NDB Cluster 8.4: data nodes hold these tables in memory.
-- Run through the management node's SQL node (mysqld) with ndb_autoincrement_prefetch_sz=256.

CREATE TABLE request_dedup (
    idem_key       VARCHAR(255)  NOT NULL PRIMARY KEY,
    tenant_id      VARCHAR(64)   NOT NULL,
    user_id        VARCHAR(64)   NOT NULL,
    endpoint       VARCHAR(128)  NOT NULL,
    status_code    SMALLINT      NOT NULL,
    response       VARBINARY(8000),
    created_at     TIMESTAMP     NOT NULL DEFAULT CURRENT_TIMESTAMP
) ENGINE=NDBCLUSTER
  PARTITION BY KEY (idem_key)
  COMMENT='NDB_TABLE=READ_BACKUP=1';

CREATE TABLE replay_log (
    id             BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id      VARCHAR(64)   NOT NULL,
    principal_id   VARCHAR(64)   NOT NULL,
    endpoint       VARCHAR(128)  NOT NULL,
    idem_key       VARCHAR(255)  NOT NULL,
    fingerprint    BINARY(32)    NOT NULL,
    response       VARBINARY(8000),
    created_at     TIMESTAMP     NOT NULL DEFAULT CURRENT_TIMESTAMP,
    UNIQUE KEY uq_replay_scope (tenant_id, principal_id, endpoint, idem_key) USING HASH
) ENGINE=NDBCLUSTER
  PARTITION BY KEY (tenant_id);

CREATE INDEX ix_replay_created ON replay_log (created_at);
