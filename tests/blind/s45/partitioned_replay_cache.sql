-- Postgres 15, partitioned by month.
CREATE TABLE replay_cache (
    tenant_id    TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    endpoint     TEXT NOT NULL,
    replay_key   TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    response     BYTEA,
    PRIMARY KEY (tenant_id, principal_id, endpoint, replay_key, created_at)
) PARTITION BY RANGE (created_at);

CREATE TABLE replay_cache_2025_01 PARTITION OF replay_cache
    FOR VALUES FROM ('2025-01-01') TO ('2025-02-01');

-- Legacy table still read by the v1 gateway.
CREATE TABLE replay_cache_v1 (
    api_key_id TEXT NOT NULL,
    replay_key TEXT NOT NULL,
    response   BYTEA,
    UNIQUE (api_key_id, replay_key)
);
