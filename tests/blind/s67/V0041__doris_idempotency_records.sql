-- Apache Doris 2.1: response cache for the payments API.
-- Merge-on-write unique model so a retry overwrites the in-progress row in place.

CREATE DATABASE IF NOT EXISTS payments;

CREATE TABLE IF NOT EXISTS payments.idempotency_records (
    idem_key        VARCHAR(255)  NOT NULL COMMENT 'Idempotency-Key header as sent',
    tenant_id       VARCHAR(64)   NOT NULL,
    principal_id    VARCHAR(64)   NOT NULL,
    route           VARCHAR(128)  NOT NULL,
    fingerprint     VARCHAR(64)   NOT NULL,
    status          VARCHAR(16)   NOT NULL DEFAULT "in_progress",
    response        STRING        NULL,
    created_at      DATETIME      NOT NULL DEFAULT CURRENT_TIMESTAMP
)
UNIQUE KEY(idem_key)
DISTRIBUTED BY HASH(idem_key) BUCKETS 16
PROPERTIES (
    "replication_num" = "3",
    "enable_unique_key_merge_on_write" = "true"
);

CREATE TABLE IF NOT EXISTS payments.replay_responses (
    tenant_id       VARCHAR(64)   NOT NULL,
    principal_id    VARCHAR(64)   NOT NULL,
    route           VARCHAR(128)  NOT NULL,
    idem_key        VARCHAR(255)  NOT NULL,
    scope_version   VARCHAR(8)    NOT NULL DEFAULT "v1",
    status_code     SMALLINT      NOT NULL,
    body            STRING        NULL,
    expires_at      DATETIME      NOT NULL
)
UNIQUE KEY(tenant_id, principal_id, route, idem_key)
DISTRIBUTED BY HASH(tenant_id) BUCKETS 32
PROPERTIES (
    "replication_num" = "3",
    "enable_unique_key_merge_on_write" = "true"
);

CREATE TABLE IF NOT EXISTS payments.request_audit (
    request_id      VARCHAR(64)   NOT NULL,
    logged_at       DATETIME      NOT NULL,
    tenant_id       VARCHAR(64)   NOT NULL,
    route           VARCHAR(128)  NOT NULL,
    status_code     SMALLINT      NOT NULL
)
UNIQUE KEY(request_id)
DISTRIBUTED BY HASH(request_id) BUCKETS 8
PROPERTIES ("replication_num" = "3");
