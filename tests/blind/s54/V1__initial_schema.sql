-- refinery migration: initial schema for the billing edge

CREATE TABLE accounts (
    id            TEXT PRIMARY KEY,
    workspace_id  TEXT NOT NULL,
    display_name  TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
    key_hash      TEXT PRIMARY KEY,
    workspace_id  TEXT NOT NULL REFERENCES accounts (id),
    label         TEXT NOT NULL,
    last_used_at  TIMESTAMPTZ
);

CREATE TABLE idempotency_keys (
    idem_key      TEXT PRIMARY KEY,
    workspace_id  TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    endpoint      TEXT NOT NULL,
    request_hash  BYTEA NOT NULL,
    status        TEXT NOT NULL DEFAULT 'in_progress',
    response_code INT,
    response_body BYTEA,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL
);

CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);
