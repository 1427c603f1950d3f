-- refinery migration V4
-- 1. idempotency_keys primary key change (INC-2291)
-- 2. add a replay log for the partner API

ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (workspace_id, user_id, endpoint, idem_key);

CREATE TABLE partner_replay_log (
    tenant_id     TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    request_key   TEXT NOT NULL,
    status        SMALLINT NOT NULL,
    headers       JSONB NOT NULL DEFAULT '{}'::jsonb,
    body          BYTEA,
    stored_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, user_id, request_key)
);

CREATE TABLE partner_sessions (
    session_token TEXT PRIMARY KEY,
    tenant_id     TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    expires_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE webhook_dedup (
    tenant_id     TEXT NOT NULL,
    client_id     TEXT NOT NULL,
    endpoint      TEXT NOT NULL,
    delivery_key  TEXT NOT NULL,
    seen_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT webhook_dedup_pk PRIMARY KEY (tenant_id, client_id, endpoint, delivery_key)
);
