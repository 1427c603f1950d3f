-- PostgreSQL 17 with the OrioleDB table access method (undo-log storage, no VACUUM bloat).
-- shared_preload_libraries must include 'orioledb' before this migration runs.

CREATE EXTENSION IF NOT EXISTS orioledb;

CREATE TABLE idempotency_keys (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id        text        NOT NULL,
    route            text        NOT NULL,
    idempotency_key  text        NOT NULL,
    request_hash     bytea       NOT NULL,
    locked_at        timestamptz,
    response_code    integer,
    response_body    jsonb,
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, route, idempotency_key)
) USING orioledb;

CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

CREATE TABLE replay_cursor (
    consumer     text        PRIMARY KEY,
    stream       text        NOT NULL,
    position     bigint      NOT NULL DEFAULT 0,
    updated_at   timestamptz NOT NULL DEFAULT now()
) USING orioledb;
