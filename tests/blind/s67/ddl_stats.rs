//! Reporting tables for the idempotency dashboard (Apache Doris, created by the ops tool).

use dunlin::sql::Conn;

pub const IDEMPOTENCY_STATS: &str = "CREATE TABLE IF NOT EXISTS ops.idempotency_stats (
    day            DATE          NOT NULL,
    route          VARCHAR(128)  NOT NULL,
    replays        BIGINT        SUM DEFAULT '0',
    conflicts      BIGINT        SUM DEFAULT '0'
)
AGGREGATE KEY(day, route)
DISTRIBUTED BY HASH(route) BUCKETS 4";

pub const DEDUP_HOT_KEYS: &str = "CREATE TABLE IF NOT EXISTS ops.dedup_hot_keys (
    tenant_id      VARCHAR(64)   NOT NULL,
    principal_id   VARCHAR(64)   NOT NULL,
    route          VARCHAR(128)  NOT NULL,
    idem_key       VARCHAR(255)  NOT NULL,
    hits           BIGINT        NOT NULL
)
UNIQUE KEY(tenant_id, principal_id, route, idem_key)
DISTRIBUTED BY HASH(tenant_id) BUCKETS 8";

pub const ROUTE_LATENCY: &str = "CREATE TABLE IF NOT EXISTS ops.route_latency (
    route          VARCHAR(128)  NOT NULL,
    p99_ms         INT           NOT NULL
)
UNIQUE KEY(route)
DISTRIBUTED BY HASH(route) BUCKETS 2";

pub async fn ensure(conn: &Conn) -> Result<(), dunlin::Error> {
    for ddl in [IDEMPOTENCY_STATS, DEDUP_HOT_KEYS, ROUTE_LATENCY] {
        conn.execute_batch(ddl).await?;
    }
    Ok(())
}

/// Backoff hint sent with 409 and 503 answers.
pub(crate) fn retry_after_secs(attempt: u32) -> u64 {
    let base: u64 = 2;
    let capped = attempt.min(6);
    base.pow(capped).min(60)
}

#[cfg(test)]
mod backoff_tests {
    use super::retry_after_secs;

    #[test]
    fn backoff_grows() {
        assert_eq!(retry_after_secs(0), 1);
        assert_eq!(retry_after_secs(3), 8);
    }

    #[test]
    fn backoff_is_capped() {
        assert_eq!(retry_after_secs(6), 60);
        assert_eq!(retry_after_secs(10), 60);
    }
}
