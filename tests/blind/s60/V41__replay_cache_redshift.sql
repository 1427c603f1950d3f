-- Amazon Redshift: response replay cache for the reporting API.
-- Redshift does not enforce PRIMARY KEY / UNIQUE; the writers and the planner rely on them.

CREATE SCHEMA IF NOT EXISTS api;

CREATE TABLE IF NOT EXISTS api.idempotency_keys (
    idem_key       VARCHAR(255)  NOT NULL PRIMARY KEY,
    tenant_id      VARCHAR(64)   NOT NULL,
    principal_id   VARCHAR(64)   NOT NULL,
    route          VARCHAR(128)  NOT NULL,
    fingerprint    VARCHAR(64)   NOT NULL,
    status_code    SMALLINT,
    response_body  VARCHAR(65535),
    created_at     TIMESTAMP     NOT NULL DEFAULT GETDATE()
)
DISTSTYLE KEY
DISTKEY (tenant_id)
SORTKEY (created_at);

CREATE TABLE IF NOT EXISTS api.api_replay_log (
    tenant_id      VARCHAR(64)   NOT NULL,
    principal_id   VARCHAR(64)   NOT NULL,
    route          VARCHAR(128)  NOT NULL,
    ns             CHAR(2)       NOT NULL,
    idem_key       VARCHAR(255)  NOT NULL,
    replayed_at    TIMESTAMP     NOT NULL DEFAULT GETDATE(),
    PRIMARY KEY (tenant_id, principal_id, route, ns, idem_key)
)
DISTKEY (tenant_id)
COMPOUND SORTKEY (tenant_id, replayed_at);

CREATE TABLE IF NOT EXISTS api.request_dedup (
    id             BIGINT IDENTITY(1, 1),
    tenant_id      VARCHAR(64)   NOT NULL,
    request_key    VARCHAR(255)  NOT NULL,
    first_seen_at  TIMESTAMP     NOT NULL DEFAULT GETDATE(),
    PRIMARY KEY (id),
    UNIQUE (tenant_id, request_key)
)
DISTSTYLE EVEN;

CREATE TABLE IF NOT EXISTS api.payment_requests (
    request_key    VARCHAR(255)  NOT NULL,
    merchant_id    VARCHAR(64)   NOT NULL,
    amount_minor   BIGINT        NOT NULL,
    currency       CHAR(3)       NOT NULL,
    UNIQUE (request_key)
)
DISTKEY (merchant_id);
