-- MaxCompute (ODPS) transaction tables 2.0 for the data-warehouse copy of
-- reply outcomes. Primary keys are only allowed on transactional tables.
SET odps.sql.type.system.odps2 = true;

CREATE TABLE IF NOT EXISTS dwd_idempotency_outcomes (
    tenant_id     STRING NOT NULL,
    principal_id  STRING NOT NULL,
    route         STRING NOT NULL,
    idem_key      STRING NOT NULL,
    status        INT,
    finished_at   TIMESTAMP,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
)
PARTITIONED BY (ds STRING)
TBLPROPERTIES ("transactional" = "true", "write.bucket.num" = "16");

CREATE TABLE IF NOT EXISTS ods_replay_responses (
    idem_key      STRING NOT NULL,
    tenant_id     STRING NOT NULL,
    route         STRING NOT NULL,
    body          STRING,
    PRIMARY KEY (tenant_id, route, idem_key)
)
TBLPROPERTIES ("transactional" = "true", "write.bucket.num" = "8");

CREATE TABLE IF NOT EXISTS ads_tuition_daily (
    tenant_id     STRING NOT NULL,
    ds            STRING NOT NULL,
    payments      BIGINT,
    PRIMARY KEY (tenant_id, ds)
)
TBLPROPERTIES ("transactional" = "true");
