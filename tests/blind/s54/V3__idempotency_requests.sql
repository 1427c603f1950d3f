-- refinery migration V3: move request replay bookkeeping out of payment_intents

CREATE TABLE payment_intents (
    id               TEXT PRIMARY KEY,
    tenant_id        TEXT NOT NULL,
    amount_minor     BIGINT NOT NULL,
    currency         CHAR(3) NOT NULL,
    idempotency_key  TEXT,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, id)
);

CREATE TABLE idempotency_requests (
    id              BIGSERIAL PRIMARY KEY,
    tenant_id       TEXT NOT NULL,
    user_id         TEXT NOT NULL,
    operation       TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    fingerprint     BYTEA NOT NULL,
    locked_at       TIMESTAMPTZ,
    response        JSONB
);

CREATE UNIQUE INDEX idempotency_requests_key_uq
    ON idempotency_requests (idempotency_key);

CREATE UNIQUE INDEX idempotency_requests_scope_uq
    ON idempotency_requests (tenant_id, user_id, operation, idempotency_key);

CREATE INDEX idempotency_requests_locked_idx ON idempotency_requests (locked_at)
    WHERE locked_at IS NOT NULL;
