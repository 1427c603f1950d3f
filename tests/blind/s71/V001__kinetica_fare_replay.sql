-- Kinetica 7.2: replay log for validator tap uploads and kiosk sales, kept
-- next to the tap analytics. Kinetica needs the shard key to be part of the
-- primary key.

CREATE SCHEMA IF NOT EXISTS farelane;

CREATE OR REPLACE TABLE farelane.tap_replay_log
(
    tenant_id    VARCHAR(64, dict) NOT NULL,
    idem_key     VARCHAR(256) NOT NULL,
    device_id    VARCHAR(64) NOT NULL,
    response     BYTES,
    created_at   TIMESTAMP NOT NULL DEFAULT NOW(),
    PRIMARY KEY (tenant_id, idem_key),
    SHARD KEY (tenant_id)
)
TIER STRATEGY (
    ( ( VRAM 1, RAM 5, PERSIST 5 ) )
);

ALTER TABLE farelane.tap_replay_log ADD INDEX (device_id);

CREATE OR REPLACE TABLE farelane.kiosk_dedup
(
    idem_key     VARCHAR(256, primary_key, shard_key) NOT NULL,
    tenant_id    VARCHAR(64, dict) NOT NULL,
    client_id    VARCHAR(64) NOT NULL,
    route        VARCHAR(64, dict) NOT NULL,
    response     BYTES
);

CREATE OR REPLACE TABLE farelane.fare_idempotency
(
    scope_version VARCHAR(4) NOT NULL,
    tenant_id     VARCHAR(64, dict) NOT NULL,
    principal_id  VARCHAR(64) NOT NULL,
    route         VARCHAR(64, dict) NOT NULL,
    ns            VARCHAR(2) NOT NULL,
    idem_key      VARCHAR(256) NOT NULL,
    fingerprint   BYTES NOT NULL,
    status        VARCHAR(16, dict) NOT NULL,
    response      BYTES,
    expires_at    TIMESTAMP,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key),
    SHARD KEY (tenant_id)
);

CREATE OR REPLACE TABLE farelane.tap_events
(
    event_id     VARCHAR(64) NOT NULL,
    tenant_id    VARCHAR(64, dict) NOT NULL,
    device_id    VARCHAR(64) NOT NULL,
    stop_id      VARCHAR(32, dict) NOT NULL,
    tapped_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (event_id, tenant_id),
    SHARD KEY (tenant_id)
)
PARTITION BY RANGE (YEAR(tapped_at))
PARTITIONS (
    p2025 MIN(2025) MAX(2026),
    p2026 MIN(2026) MAX(2027)
);
