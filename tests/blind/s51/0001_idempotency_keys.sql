-- 0001: idempotency storage for the payments API (PostgreSQL).

CREATE TABLE idempotency_keys (
    key            TEXT PRIMARY KEY,
    tenant_id      TEXT NOT NULL,
    response_code  INT,
    response_body  JSONB,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- v2 layout, written by idem-scope's PgStore; the old table is dropped in 0005.
CREATE TABLE api_idempotency (
    scope_version  TEXT NOT NULL DEFAULT 'v1',
    tenant_id      TEXT NOT NULL,
    principal_id   TEXT NOT NULL,
    route          TEXT NOT NULL,
    ns             TEXT NOT NULL DEFAULT 'u:',
    idem_key       TEXT NOT NULL,
    fingerprint    BYTEA NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response       JSONB,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);

CREATE INDEX api_idempotency_expires_idx ON api_idempotency (expires_at);

CREATE TABLE customers (
    id          TEXT PRIMARY KEY,
    tenant_id   TEXT NOT NULL,
    email       TEXT NOT NULL,
    UNIQUE (tenant_id, email)
);
