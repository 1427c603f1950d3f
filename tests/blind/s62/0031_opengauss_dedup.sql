-- openGauss 5.0 / GaussDB (distributed), schema "orders".
SET search_path TO orders;

CREATE TABLE dedup_requests (
    id            BIGSERIAL     NOT NULL,
    tenant_id     VARCHAR(64)   NOT NULL,
    principal_id  VARCHAR(64)   NOT NULL,
    route         VARCHAR(96)   NOT NULL,
    dedup_key     VARCHAR(255)  NOT NULL,
    state         VARCHAR(16)   NOT NULL DEFAULT 'in_progress',
    response      BYTEA,
    created_at    TIMESTAMPTZ   NOT NULL DEFAULT now(),
    CONSTRAINT pk_dedup_requests PRIMARY KEY (id),
    CONSTRAINT uq_dedup_requests UNIQUE (tenant_id, route, dedup_key)
)
DISTRIBUTE BY HASH (id);

CREATE INDEX idx_dedup_requests_key ON dedup_requests (dedup_key);

CREATE TABLE idempotency_records (
    scope_version VARCHAR(8)    NOT NULL DEFAULT 'v1',
    tenant_id     VARCHAR(64)   NOT NULL,
    principal_id  VARCHAR(64)   NOT NULL,
    route         VARCHAR(96)   NOT NULL,
    ns            CHAR(2)       NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    fingerprint   BYTEA         NOT NULL,
    status        VARCHAR(16)   NOT NULL,
    response      BYTEA,
    expires_at    TIMESTAMPTZ   NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)
DISTRIBUTE BY HASH (tenant_id);

CREATE TABLE order_events (
    event_id      VARCHAR(64)   NOT NULL PRIMARY KEY,
    order_id      BIGINT        NOT NULL,
    kind          VARCHAR(32)   NOT NULL,
    payload       JSONB         NOT NULL
)
DISTRIBUTE BY HASH (event_id);
