-- Replay store for the public booking API (v1 handlers).
-- Rows are swept by the nightly janitor after 48h.

CREATE TABLE IF NOT EXISTS idempotency_keys (
    key            TEXT PRIMARY KEY,
    tenant_id      UUID NOT NULL,
    user_id        UUID NOT NULL,
    request_path   TEXT NOT NULL,
    request_hash   BYTEA NOT NULL,
    response_code  SMALLINT,
    response_body  JSONB,
    locked_at      TIMESTAMPTZ,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS idempotency_keys_created_idx ON idempotency_keys (created_at);
CREATE INDEX IF NOT EXISTS idempotency_keys_tenant_idx ON idempotency_keys (tenant_id, user_id);

CREATE TABLE IF NOT EXISTS shipments (
    id           UUID PRIMARY KEY,
    tenant_id    UUID NOT NULL,
    reference    TEXT NOT NULL,
    origin       TEXT NOT NULL,
    destination  TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, reference)
);
