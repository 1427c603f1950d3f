-- 0007: idempotency for the public API (PostgreSQL)
-- Responses are replayed for 24h; a sweeper deletes expired rows.

CREATE TABLE idempotency_keys (
    idem_key     TEXT PRIMARY KEY,
    status       TEXT NOT NULL DEFAULT 'in_progress',
    fingerprint  BYTEA NOT NULL,
    response     BYTEA,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at   TIMESTAMPTZ NOT NULL
);

CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);

CREATE TABLE sessions (
    token       TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    tenant_id   TEXT NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE idempotency_records (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BYTEA NOT NULL,
    status        TEXT NOT NULL,
    response      BYTEA,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
