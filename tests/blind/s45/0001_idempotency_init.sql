-- Payments service: first idempotency table (2021). Keyed by whatever the client sent.
CREATE TABLE idempotency_keys (
    key           TEXT PRIMARY KEY,
    request_path  TEXT NOT NULL,
    response_code INTEGER,
    response_body JSONB,
    locked_at     TIMESTAMPTZ,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);

-- Worker leases for the settlement batcher; unrelated to request idempotency.
CREATE TABLE job_leases (
    job_name    TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);
