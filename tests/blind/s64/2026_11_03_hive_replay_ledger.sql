-- Hive 3.1 (LLAP, ACID) tables for the analytics replay pipeline.
-- Constraints are informational only (DISABLE NOVALIDATE) but the loaders rely on them.

SET hive.support.concurrency=true;
SET hive.txn.manager=org.apache.hadoop.hive.ql.lockmgr.DbTxnManager;

CREATE DATABASE IF NOT EXISTS replay_ops;
USE replay_ops;

CREATE TABLE IF NOT EXISTS replay_requests (
    idempotency_key STRING,
    tenant_id       STRING,
    received_at     TIMESTAMP,
    status          STRING,
    response_json   STRING,
    PRIMARY KEY (idempotency_key) DISABLE NOVALIDATE
)
CLUSTERED BY (idempotency_key) INTO 32 BUCKETS
STORED AS ORC
TBLPROPERTIES ('transactional'='true');

CREATE TABLE IF NOT EXISTS replay_responses (
    tenant_id       STRING,
    principal_id    STRING,
    route           STRING,
    idem_key        STRING,
    fingerprint     STRING,
    response_json   STRING,
    completed_at    TIMESTAMP,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key) DISABLE NOVALIDATE
)
PARTITIONED BY (ds STRING)
CLUSTERED BY (tenant_id) INTO 16 BUCKETS
STORED AS ORC
TBLPROPERTIES ('transactional'='true');

CREATE TABLE IF NOT EXISTS export_batches (
    batch_key       STRING,
    created_at      TIMESTAMP,
    row_count       BIGINT,
    PRIMARY KEY (batch_key) DISABLE NOVALIDATE
)
STORED AS ORC
TBLPROPERTIES ('transactional'='true');

CREATE MATERIALIZED VIEW IF NOT EXISTS replay_daily AS
SELECT tenant_id, ds, count(*) AS responses
FROM replay_responses
GROUP BY tenant_id, ds;
