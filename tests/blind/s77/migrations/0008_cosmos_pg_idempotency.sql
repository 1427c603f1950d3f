-- Azure Cosmos DB for PostgreSQL (managed Citus): booking idempotency.

CREATE TABLE booking_idempotency (
    tenant_id      text        NOT NULL,
    user_id        text        NOT NULL,
    route          text        NOT NULL,
    ns             text        NOT NULL DEFAULT 'u:',
    idem_key       text        NOT NULL,
    status         text        NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response       jsonb,
    expires_at     timestamptz NOT NULL,
    CONSTRAINT booking_idempotency_pk PRIMARY KEY (tenant_id, user_id, route, ns, idem_key)
);
SELECT create_distributed_table('booking_idempotency', 'tenant_id');

CREATE TABLE kiosk_replay_log (
    tenant_id      text        NOT NULL,
    device_id      text        NOT NULL,
    replay_key     text        NOT NULL,
    response       bytea,
    CONSTRAINT kiosk_replay_log_pk PRIMARY KEY (tenant_id, replay_key)
);
SELECT create_distributed_table('kiosk_replay_log', 'tenant_id');

CREATE TABLE resort_catalog (
    resort_code    text PRIMARY KEY,
    display_name   text NOT NULL
);
SELECT create_reference_table('resort_catalog');

CREATE INDEX kiosk_replay_log_device_idx ON kiosk_replay_log (device_id, replay_key);
