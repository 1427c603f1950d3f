-- TimescaleDB 2.17 on PostgreSQL 16: deduplication of metering writes.
-- Hypertables require the time column in every unique constraint.

BEGIN;

CREATE TABLE IF NOT EXISTS metering_dedup_events (
    idem_key        TEXT            NOT NULL,
    created_at      TIMESTAMPTZ     NOT NULL DEFAULT now(),
    tenant_id       TEXT            NOT NULL,
    meter           TEXT            NOT NULL,
    quantity        BIGINT          NOT NULL,
    PRIMARY KEY (idem_key, created_at)
);
SELECT create_hypertable('metering_dedup_events', by_range('created_at', INTERVAL '1 day'));

CREATE TABLE IF NOT EXISTS idempotency_ledger (
    tenant_id       TEXT            NOT NULL,
    principal_id    TEXT            NOT NULL,
    route           TEXT            NOT NULL,
    idem_key        TEXT            NOT NULL,
    created_at      TIMESTAMPTZ     NOT NULL DEFAULT now(),
    fingerprint     BYTEA           NOT NULL,
    status          TEXT            NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response        JSONB,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key, created_at)
);
SELECT create_hypertable('idempotency_ledger', by_range('created_at', INTERVAL '1 day'));

CREATE INDEX IF NOT EXISTS idempotency_ledger_key_lookup
    ON idempotency_ledger (idem_key, created_at DESC);

ALTER TABLE idempotency_ledger SET (
    timescaledb.compress,
    timescaledb.compress_segmentby = 'tenant_id, principal_id, route'
);
SELECT add_compression_policy('idempotency_ledger', INTERVAL '2 days');
SELECT add_retention_policy('idempotency_ledger', INTERVAL '30 days');
SELECT add_retention_policy('metering_dedup_events', INTERVAL '7 days');

CREATE MATERIALIZED VIEW metering_hourly
WITH (timescaledb.continuous) AS
SELECT tenant_id, meter, time_bucket('1 hour', created_at) AS bucket, sum(quantity) AS total
FROM metering_dedup_events
GROUP BY tenant_id, meter, bucket
WITH NO DATA;

COMMIT;
