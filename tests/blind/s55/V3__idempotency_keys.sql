-- Idempotency keys for the public REST API (payments edge).
-- Rows expire after 24h; see the reaper job in ops/reaper.

CREATE TABLE IF NOT EXISTS idempotency_keys (
    id               BIGSERIAL PRIMARY KEY,
    idempotency_key  TEXT        NOT NULL,
    tenant_id        UUID        NOT NULL,
    user_id          UUID        NOT NULL,
    request_path     TEXT        NOT NULL,
    request_hash     BYTEA       NOT NULL,
    status           TEXT        NOT NULL DEFAULT 'in_progress',
    response_code    INTEGER,
    response_body    JSONB,
    locked_at        TIMESTAMPTZ,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at       TIMESTAMPTZ NOT NULL DEFAULT now() + INTERVAL '24 hours'
);

CREATE UNIQUE INDEX IF NOT EXISTS idempotency_keys_key_uq ON idempotency_keys (idempotency_key);

CREATE INDEX IF NOT EXISTS idempotency_keys_expires_idx ON idempotency_keys (expires_at);

COMMENT ON COLUMN idempotency_keys.request_hash IS 'sha256 of the raw request body, compared on replay';

GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_keys TO payments_edge;
GRANT USAGE ON SEQUENCE idempotency_keys_id_seq TO payments_edge;
