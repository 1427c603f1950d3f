-- KaiwuDB 2.1: AMI telemetry lives in a time-series database, portal
-- bookkeeping in a relational one (both in the same cluster).

CREATE TS DATABASE ami_ts RETENTIONS 400d PARTITION INTERVAL 10d;

CREATE TABLE ami_ts.meter_reads (
    k_timestamp  TIMESTAMPTZ NOT NULL,
    reading      INT8        NOT NULL,
    flow_lpm     FLOAT8,
    battery_mv   INT4
) TAGS (
    dev_eui      VARCHAR(16) NOT NULL,
    tenant_id    VARCHAR(64) NOT NULL,
    pressure_zone VARCHAR(32)
) PRIMARY TAGS (dev_eui);

CREATE DATABASE ami_rel;

CREATE TABLE ami_rel.manual_read_idempotency (
    tenant_id    VARCHAR(64)  NOT NULL,
    user_id      VARCHAR(64)  NOT NULL,
    idem_key     VARCHAR(255) NOT NULL,
    fingerprint  BYTES        NOT NULL,
    response     BYTES,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    CONSTRAINT manual_read_idempotency_pk PRIMARY KEY (tenant_id, user_id, idem_key)
);

CREATE TABLE ami_rel.alert_idempotency (
    scope_version STRING NOT NULL,
    tenant_id     STRING NOT NULL,
    principal_id  STRING NOT NULL,
    route         STRING NOT NULL,
    ns            STRING NOT NULL,
    idem_key      STRING NOT NULL,
    fingerprint   BYTES  NOT NULL,
    status        STRING NOT NULL DEFAULT 'in_progress',
    response      BYTES,
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);

CREATE INDEX alert_idempotency_by_key ON ami_rel.alert_idempotency (idem_key);

CREATE TABLE ami_rel.endpoint_swaps (
    dev_eui      VARCHAR(16) PRIMARY KEY,
    tenant_id    VARCHAR(64) NOT NULL,
    swapped_at   TIMESTAMPTZ NOT NULL
);
