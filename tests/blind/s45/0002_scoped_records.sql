-- Replaces idempotency_keys with the scoped layout from idem-scope.
CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version TEXT        NOT NULL,
    tenant_id     TEXT        NOT NULL,
    principal_id  TEXT        NOT NULL,
    route         TEXT        NOT NULL,
    ns            TEXT        NOT NULL CHECK (ns IN ('u:', 's:')),
    idem_key      TEXT        NOT NULL,
    fingerprint   BYTEA       NOT NULL,
    status        TEXT        NOT NULL,
    response      BYTEA,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);

CREATE INDEX IF NOT EXISTS idempotency_records_expiry ON idempotency_records (expires_at);

-- Webhook replay log written by the partner console.
CREATE TABLE IF NOT EXISTS replay_log (
    tenant_id    TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    replay_key   TEXT NOT NULL,
    result       JSONB,
    PRIMARY KEY (tenant_id, principal_id, replay_key)
);
