CREATE TABLE dedup_requests (
    id            BIGSERIAL PRIMARY KEY,
    tenant_id     TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    route         TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    response      JSONB,
    CONSTRAINT dedup_requests_key UNIQUE (tenant_id, idem_key)
);

CREATE TABLE replay_cache (
    id               BIGSERIAL PRIMARY KEY,
    idempotency_key  VARCHAR(255) NOT NULL,
    body             BYTEA NOT NULL
);

CREATE UNIQUE INDEX replay_cache_key_idx ON replay_cache (idempotency_key);
