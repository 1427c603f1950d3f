-- Postgres Pro Shardman 14: sharded idempotency store for the HTTP layer,
-- global (replicated) lookup tables.

CREATE TABLE idempotency_entries (
    scope_version text NOT NULL DEFAULT 'v1',
    tenant_id text NOT NULL,
    principal_id text NOT NULL,
    route text NOT NULL,
    ns text NOT NULL CHECK (ns IN ('u:', 's:')),
    idem_key text NOT NULL,
    fingerprint bytea NOT NULL,
    status text NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, scope_version, principal_id, route, ns, idem_key)
) WITH (distributed_by = 'tenant_id', num_parts = 24);

CREATE UNIQUE INDEX idempotency_entries_client ON idempotency_entries (tenant_id, principal_id, route, idem_key) WHERE ns = 'u:';

CREATE TABLE replay_windows (
    idem_key text PRIMARY KEY,
    tenant_id text NOT NULL,
    opened_at timestamptz NOT NULL DEFAULT now(),
    closes_at timestamptz NOT NULL
) WITH (global);

CREATE TABLE dedup_webhooks (
    delivery_seq bigint GENERATED ALWAYS AS IDENTITY,
    tenant_id text NOT NULL,
    principal_id text NOT NULL,
    route text NOT NULL,
    idem_key text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, delivery_seq)
) WITH (distributed_by = 'tenant_id', num_parts = 24);

CREATE UNIQUE INDEX dedup_webhooks_key ON dedup_webhooks (tenant_id, idem_key);

CREATE TABLE terminals (
    terminal_code text PRIMARY KEY,
    name text NOT NULL,
    unlocode char(5) NOT NULL
) WITH (global);
