-- Apache Derby 10.16 (embedded in the on-prem appliance build).
-- Applied with ij by the appliance installer.

CREATE TABLE idempotency_keys (
    tenant_id     VARCHAR(64)   NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    principal_id  VARCHAR(64)   NOT NULL,
    route         VARCHAR(96)   NOT NULL,
    status        VARCHAR(16)   NOT NULL DEFAULT 'in_progress',
    fingerprint   CHAR(64)      FOR BIT DATA,
    response      BLOB(1M),
    created_at    TIMESTAMP     NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT pk_idempotency_keys PRIMARY KEY (tenant_id, idem_key)
);

CREATE TABLE api_idempotency (
    scope_version VARCHAR(8)    NOT NULL DEFAULT 'v1',
    tenant_id     VARCHAR(64)   NOT NULL,
    principal_id  VARCHAR(64)   NOT NULL,
    route         VARCHAR(96)   NOT NULL,
    ns            CHAR(2)       NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    status        VARCHAR(16)   NOT NULL,
    response      BLOB(1M),
    expires_at    TIMESTAMP     NOT NULL,
    CONSTRAINT pk_api_idempotency PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);

CREATE TABLE replay_cache (
    id            BIGINT        NOT NULL GENERATED ALWAYS AS IDENTITY (START WITH 1, INCREMENT BY 1),
    tenant_id     VARCHAR(64)   NOT NULL,
    principal_id  VARCHAR(64)   NOT NULL,
    route         VARCHAR(96)   NOT NULL,
    replay_key    VARCHAR(255)  NOT NULL,
    body          BLOB(1M),
    created_at    TIMESTAMP     NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT pk_replay_cache PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ux_replay_cache_key ON replay_cache (replay_key);

CREATE INDEX ix_replay_cache_created ON replay_cache (created_at);

CREATE INDEX ix_idempotency_keys_status ON idempotency_keys (status, created_at);
