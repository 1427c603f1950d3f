-- PostgreSQL 15
-- Replay storage for the public checkout API and the session table it shares
-- a schema with.

CREATE TABLE IF NOT EXISTS idempotency_keys (
    idem_key        TEXT        PRIMARY KEY,
    tenant_id       UUID        NOT NULL,
    user_id         UUID        NOT NULL,
    request_path    TEXT        NOT NULL,
    request_digest  BYTEA       NOT NULL,
    status          SMALLINT    NOT NULL DEFAULT 0,
    response_code   SMALLINT,
    response_body   JSONB,
    locked_until    TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS idempotency_keys_created_idx
    ON idempotency_keys (created_at);

CREATE INDEX IF NOT EXISTS idempotency_keys_tenant_idx
    ON idempotency_keys (tenant_id, created_at DESC);

CREATE TABLE IF NOT EXISTS api_sessions (
    token           TEXT        PRIMARY KEY,
    tenant_id       UUID        NOT NULL,
    user_id         UUID        NOT NULL,
    expires_at      TIMESTAMPTZ NOT NULL
);

ALTER TABLE idempotency_keys
    ADD CONSTRAINT idempotency_keys_status_chk CHECK (status IN (0, 1, 2));

COMMENT ON TABLE idempotency_keys IS 'Stored responses for retried checkout requests';
COMMENT ON COLUMN idempotency_keys.locked_until IS 'Lease of the request currently executing';

CREATE OR REPLACE FUNCTION purge_expired_sessions() RETURNS integer
LANGUAGE sql AS $$
    WITH gone AS (
        DELETE FROM api_sessions WHERE expires_at < now() RETURNING 1
    )
    SELECT count(*)::integer FROM gone;
$$;

GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_keys TO checkout_api;
GRANT SELECT, INSERT, DELETE ON api_sessions TO checkout_api;
