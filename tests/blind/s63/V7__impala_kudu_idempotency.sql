-- Impala 4.4 over Kudu 1.17: idempotency window for the ingestion API.
-- Kudu requires the primary key columns first, in key order.

CREATE TABLE IF NOT EXISTS ingest.idempotency_window (
    tenant_id    STRING NOT NULL,
    principal_id STRING NOT NULL,
    route        STRING NOT NULL,
    idem_key     STRING NOT NULL,
    fingerprint  BINARY,
    status       STRING,
    created_at   TIMESTAMP,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
)
PARTITION BY HASH (tenant_id) PARTITIONS 8
STORED AS KUDU
TBLPROPERTIES ('kudu.num_tablet_replicas' = '3');

CREATE TABLE IF NOT EXISTS ingest.replay_keys (
    idempotency_key STRING NOT NULL PRIMARY KEY,
    tenant_id       STRING,
    response        STRING,
    created_at      TIMESTAMP
)
PARTITION BY HASH (idempotency_key) PARTITIONS 4
STORED AS KUDU;

-- Raw request journal kept for debugging; one row per request key.
CREATE TABLE IF NOT EXISTS ingest.request_journal (
    request_key STRING NOT NULL PRIMARY KEY,
    tenant_id   STRING,
    received_at TIMESTAMP,
    body        STRING
)
PARTITION BY HASH (request_key) PARTITIONS 4
STORED AS KUDU;

ALTER TABLE ingest.idempotency_window SET TBLPROPERTIES ('comment' = 'ingestion retries, 24 h window');

CREATE VIEW IF NOT EXISTS ingest.idempotency_in_flight AS
    SELECT tenant_id, principal_id, route, idem_key, created_at
    FROM ingest.idempotency_window
    WHERE status = 'in_progress';

COMPUTE STATS ingest.idempotency_window;
COMPUTE STATS ingest.replay_keys;
