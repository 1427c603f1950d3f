-- Aurora PostgreSQL Limitless Database. Sharded tables must include the
-- shard key in every PRIMARY KEY / UNIQUE constraint; reference tables are
-- replicated to every shard.

SET rds_aurora.limitless_create_table_mode = 'sharded';
SET rds_aurora.limitless_create_table_shard_key = '{"org_id"}';

CREATE TABLE dedup_requests (
    org_id       text        NOT NULL,
    user_id      text        NOT NULL,
    idem_key     text        NOT NULL,
    fingerprint  bytea       NOT NULL,
    status       text        NOT NULL DEFAULT 'in_progress',
    response     jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (org_id, user_id, idem_key)
);

CREATE INDEX dedup_requests_created ON dedup_requests (org_id, created_at);

SET rds_aurora.limitless_create_table_mode = 'reference';

CREATE TABLE replay_routes (
    route        text PRIMARY KEY,
    ttl_seconds  integer NOT NULL DEFAULT 86400,
    enabled      boolean NOT NULL DEFAULT true
);

RESET rds_aurora.limitless_create_table_mode;
