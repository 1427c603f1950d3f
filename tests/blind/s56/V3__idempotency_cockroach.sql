-- V3: idempotency storage for the payments API (CockroachDB 23.2).
-- Rows expire through row-level TTL; no cleanup job is needed.

CREATE TABLE IF NOT EXISTS idempotency_keys (
    tenant_id    STRING      NOT NULL,
    idem_key     STRING      NOT NULL,
    request_hash BYTES       NOT NULL,
    status       STRING      NOT NULL DEFAULT 'in_progress',
    response     JSONB,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT idempotency_keys_pk PRIMARY KEY (tenant_id, idem_key)
) WITH (ttl_expiration_expression = 'created_at + INTERVAL ''24 hours''');

CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version STRING      NOT NULL,
    tenant_id     STRING      NOT NULL,
    principal_id  STRING      NOT NULL,
    route         STRING      NOT NULL,
    ns            STRING      NOT NULL,
    idem_key      STRING      NOT NULL,
    fingerprint   BYTES       NOT NULL,
    status        STRING      NOT NULL,
    response      BYTES,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key),
    INDEX idempotency_records_expiry (expires_at)
) WITH (ttl_expiration_expression = 'expires_at');

CREATE TABLE IF NOT EXISTS replay_tokens (
    tenant_id    STRING      NOT NULL,
    principal_id STRING      NOT NULL,
    client_key   STRING      NOT NULL,
    issued_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, principal_id, client_key)
);

CREATE TABLE IF NOT EXISTS request_audit (
    request_id   STRING      NOT NULL PRIMARY KEY,
    tenant_id    STRING      NOT NULL,
    route        STRING      NOT NULL,
    status_code  INT8        NOT NULL,
    logged_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
