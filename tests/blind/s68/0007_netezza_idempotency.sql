-- IBM Netezza Performance Server 11.2
-- Request keys for the partner gateway, plus the response archive.

CREATE TABLE idempotency_keys (
    idem_key        VARCHAR(255)  NOT NULL PRIMARY KEY,
    tenant_id       VARCHAR(64)   NOT NULL,
    principal_id    VARCHAR(64)   NOT NULL,
    route           VARCHAR(128)  NOT NULL,
    fingerprint     VARCHAR(64),
    status          VARCHAR(16)   DEFAULT 'in_progress',
    created_at      TIMESTAMP     DEFAULT CURRENT_TIMESTAMP
)
DISTRIBUTE ON (idem_key);

CREATE TABLE replay_responses (
    tenant_id       VARCHAR(64)   NOT NULL,
    principal_id    VARCHAR(64)   NOT NULL,
    route           VARCHAR(128)  NOT NULL,
    idem_key        VARCHAR(255)  NOT NULL,
    status_code     SMALLINT,
    body            NVARCHAR(16000),
    created_at      TIMESTAMP     DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
)
DISTRIBUTE ON (tenant_id)
ORGANIZE ON (created_at);

CREATE TABLE dedup_batches (
    batch_id        BIGINT        NOT NULL,
    tenant_id       VARCHAR(64)   NOT NULL,
    principal_id    VARCHAR(64)   NOT NULL,
    route           VARCHAR(128)  NOT NULL,
    idem_key        VARCHAR(255)  NOT NULL,
    rows_loaded     INTEGER,
    UNIQUE (principal_id, route, idem_key)
)
DISTRIBUTE ON (batch_id);

CREATE TABLE customer_segments (
    segment_id      VARCHAR(64)   NOT NULL PRIMARY KEY,
    tenant_id       VARCHAR(64)   NOT NULL,
    rule_text       NVARCHAR(4000)
)
DISTRIBUTE ON (segment_id);

GRANT SELECT, INSERT, UPDATE ON idempotency_keys, replay_responses, dedup_batches TO partner_gateway;
