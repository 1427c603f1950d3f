-- Apache Cloudberry 2.0 (Greenplum-derived MPP): replay tables for the
-- analytics warehouse that re-serves partner exports.

CREATE TABLE export_replay_cache (
    request_key   text        NOT NULL,
    tenant_id     text        NOT NULL,
    body          bytea,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (request_key)
)
WITH (appendoptimized = false)
DISTRIBUTED BY (request_key);

CREATE TABLE partner_idempotency_keys (
    tenant_id     text        NOT NULL,
    client_id     text        NOT NULL,
    route         text        NOT NULL,
    idem_key      text        NOT NULL,
    fingerprint   bytea       NOT NULL,
    response      bytea,
    PRIMARY KEY (tenant_id, client_id, route, idem_key)
)
DISTRIBUTED BY (tenant_id);

CREATE TABLE lift_scan_facts (
    scan_id       bigint      NOT NULL,
    gate_id       text        NOT NULL,
    scanned_at    timestamptz NOT NULL,
    PRIMARY KEY (scan_id)
)
DISTRIBUTED BY (scan_id);

CREATE TABLE report_dedup (
    dedup_id      bigserial,
    tenant_id     text        NOT NULL,
    dedup_key     text        NOT NULL,
    PRIMARY KEY (dedup_id, tenant_id),
    UNIQUE (tenant_id, dedup_key)
)
DISTRIBUTED BY (tenant_id);
