//! Streaming sink: completed API requests are mirrored into RisingWave
//! so the fraud views can join on them.

use sluice::sql::{Pool, SqlError};

pub const CREATE_IDEMPOTENCY_MIRROR: &str = "CREATE TABLE IF NOT EXISTS idempotency_keys_mirror (
    idempotency_key  VARCHAR PRIMARY KEY,
    tenant_id        VARCHAR,
    user_id          VARCHAR,
    route            VARCHAR,
    status           SMALLINT,
    completed_at     TIMESTAMPTZ
) ON CONFLICT OVERWRITE";

pub const CREATE_FRAUD_VIEW: &str = "CREATE MATERIALIZED VIEW IF NOT EXISTS repeat_callers AS
    SELECT tenant_id, user_id, count(*) AS calls
    FROM idempotency_keys_mirror
    GROUP BY tenant_id, user_id
    HAVING count(*) > 50";

pub struct MirrorRow<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub route: &'a str,
    pub storage_key: &'a str,
    pub status: i16,
}

pub async fn ensure(pool: &Pool) -> Result<(), SqlError> {
    pool.execute_raw(CREATE_IDEMPOTENCY_MIRROR).await?;
    pool.execute_raw(CREATE_FRAUD_VIEW).await?;
    Ok(())
}

pub async fn mirror(pool: &Pool, row: MirrorRow<'_>) -> Result<(), SqlError> {
    sluice::sql::query(
        "INSERT INTO idempotency_keys_mirror (idempotency_key, tenant_id, user_id, route, status, completed_at) VALUES ($1, $2, $3, $4, $5, now())",
    )
    .bind(row.storage_key)
    .bind(row.tenant_id)
    .bind(row.user_id)
    .bind(row.route)
    .bind(row.status)
    .execute(pool)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRATCH_TABLE: &str = "CREATE TABLE scratch_dedup (dedup_key VARCHAR PRIMARY KEY, seen TIMESTAMPTZ)";

    #[tokio::test]
    async fn mirror_roundtrip() {
        let pool = Pool::connect("postgres://root@localhost:4566/dev").await.unwrap();
        pool.execute_raw(SCRATCH_TABLE).await.unwrap();
        ensure(&pool).await.unwrap();
        mirror(&pool, MirrorRow { tenant_id: "t1", user_id: "u1", route: "charge", storage_key: "v1\0t1\0u1\0charge\0u:\0k", status: 201 }).await.unwrap();
    }
}
