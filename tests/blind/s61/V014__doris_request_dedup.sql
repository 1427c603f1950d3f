-- Apache Doris 2.1: request deduplication for the analytics ingest API.
-- The ingest API is called by customer SDKs with an Idempotency-Key header.

CREATE DATABASE IF NOT EXISTS ingest;
USE ingest;

CREATE TABLE IF NOT EXISTS request_dedup (
    idem_key        VARCHAR(255)    NOT NULL COMMENT "client supplied key",
    tenant_id       VARCHAR(64)     NOT NULL,
    user_id         VARCHAR(64)     NOT NULL,
    route           VARCHAR(128)    NOT NULL,
    response        STRING          NULL,
    created_at      DATETIME        NOT NULL DEFAULT CURRENT_TIMESTAMP
)
UNIQUE KEY(idem_key)
DISTRIBUTED BY HASH(idem_key) BUCKETS 16
PROPERTIES (
    "replication_num" = "3",
    "enable_unique_key_merge_on_write" = "true"
);

CREATE TABLE IF NOT EXISTS api_idempotency (
    tenant_id       VARCHAR(64)     NOT NULL,
    user_id         VARCHAR(64)     NOT NULL,
    route           VARCHAR(128)    NOT NULL,
    idem_key        VARCHAR(255)    NOT NULL,
    fingerprint     VARCHAR(64)     NOT NULL,
    status          VARCHAR(16)     NOT NULL,
    response        STRING          NULL,
    created_at      DATETIME        NOT NULL DEFAULT CURRENT_TIMESTAMP
)
UNIQUE KEY(tenant_id, user_id, route, idem_key)
DISTRIBUTED BY HASH(tenant_id) BUCKETS 32
PROPERTIES (
    "replication_num" = "3",
    "enable_unique_key_merge_on_write" = "true"
);

CREATE TABLE IF NOT EXISTS replay_audit (
    event_time      DATETIME        NOT NULL,
    idem_key        VARCHAR(255)    NOT NULL,
    tenant_id       VARCHAR(64)     NOT NULL,
    outcome         VARCHAR(16)     NOT NULL
)
DUPLICATE KEY(event_time, idem_key)
PARTITION BY RANGE(event_time) ()
DISTRIBUTED BY HASH(tenant_id) BUCKETS 8
PROPERTIES (
    "dynamic_partition.enable" = "true",
    "dynamic_partition.time_unit" = "DAY",
    "dynamic_partition.end" = "3",
    "dynamic_partition.prefix" = "p"
);
