-- TDengine 3.3 time-series store for gate and OCR events.
-- Composite primary keys (timestamp + one column) need 3.3.0 or later.

CREATE DATABASE IF NOT EXISTS gate_ts KEEP 3650 DURATION 10 PRECISION 'ms' WAL_LEVEL 1;

USE gate_ts;

CREATE STABLE IF NOT EXISTS ocr_passes (
    ts TIMESTAMP,
    seq INT PRIMARY KEY,
    plate VARCHAR(16),
    containers NCHAR(64),
    confidence FLOAT
) TAGS (org_id VARCHAR(32), lane TINYINT);

CREATE TABLE IF NOT EXISTS ocr_lane_01 USING ocr_passes TAGS ('PORT-A', 1);

-- Replies of the OCR gate API, kept as a time series for the replay console.
CREATE TABLE IF NOT EXISTS idempotency_log (
    ts TIMESTAMP,
    idem_key VARCHAR(255) PRIMARY KEY,
    tenant_id VARCHAR(64),
    principal_id VARCHAR(64),
    route VARCHAR(128),
    status_code SMALLINT,
    response VARCHAR(4096)
);

CREATE STABLE IF NOT EXISTS reefer_readings (
    ts TIMESTAMP,
    sensor_seq BIGINT PRIMARY KEY,
    supply_c FLOAT,
    return_c FLOAT,
    humidity_pct TINYINT
) TAGS (container_no VARCHAR(11), org_id VARCHAR(32));

CREATE STREAM IF NOT EXISTS reefer_alarms INTO reefer_alarm_1m AS
    SELECT _wstart, max(supply_c) AS max_supply, container_no FROM reefer_readings PARTITION BY container_no INTERVAL(1m);
