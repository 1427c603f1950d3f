//! DDL for the StarRocks cluster that serves replay lookups for the reporting API.
//! StarRocks speaks the MySQL protocol; statements are sent one by one.

use sluice::sql::{MysqlPool, SqlError};

pub const REPLAY_RESPONSES: &str = "
CREATE TABLE IF NOT EXISTS replay_responses (
    tenant_id    VARCHAR(64)  NOT NULL,
    user_id      VARCHAR(64)  NOT NULL,
    route        VARCHAR(128) NOT NULL,
    idem_key     VARCHAR(255) NOT NULL,
    fingerprint  VARBINARY(32),
    status       SMALLINT,
    body         STRING,
    created_at   DATETIME
)
PRIMARY KEY (tenant_id, user_id, route, idem_key)
DISTRIBUTED BY HASH(tenant_id) BUCKETS 16
PROPERTIES (\"replication_num\" = \"3\")";

pub const DEDUP_HITS: &str = "
CREATE TABLE IF NOT EXISTS dedup_hits (
    dedup_key    VARCHAR(255) NOT NULL,
    tenant_id    VARCHAR(64)  NOT NULL,
    route        VARCHAR(128),
    first_seen   DATETIME,
    hits         BIGINT
)
PRIMARY KEY (dedup_key)
DISTRIBUTED BY HASH(dedup_key) BUCKETS 8";

pub const REPORT_RUNS: &str = "
CREATE TABLE IF NOT EXISTS report_runs (
    run_id       BIGINT       NOT NULL,
    tenant_id    VARCHAR(64)  NOT NULL,
    started_at   DATETIME,
    rows_out     BIGINT
)
PRIMARY KEY (run_id)
DISTRIBUTED BY HASH(run_id) BUCKETS 4";

pub async fn apply(pool: &MysqlPool) -> Result<(), SqlError> {
    for ddl in [REPLAY_RESPONSES, DEDUP_HITS, REPORT_RUNS] {
        pool.execute_raw(ddl).await?;
    }
    Ok(())
}
