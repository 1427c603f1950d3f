CREATE TABLE users (
    id          BIGSERIAL PRIMARY KEY,
    tenant_id   TEXT NOT NULL,
    email       TEXT NOT NULL,
    UNIQUE (tenant_id, email)
);

CREATE TABLE idempotency_keys (
    idem_key     TEXT PRIMARY KEY,
    status       TEXT NOT NULL DEFAULT 'in_progress',
    response     BYTEA,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE job_leases (
    job_id       TEXT PRIMARY KEY,
    holder       TEXT NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL
);
