//! [`Store`] on PostgreSQL ([`POSTGRES_SCHEMA`]) through sqlx: one statement per step.

use std::time::{Duration, UNIX_EPOCH};

use sqlx::postgres::{PgPool, PgRow};
use sqlx::Row;

use crate::store::{decode_response, encode_response};
use crate::{
    ClaimToken, Claimed, Fingerprint, Record, RecordState, ScopedKey, Store, StoreError,
    StoredResponse, POSTGRES_SCHEMA,
};

/// Records in the `idempotency_records` table of [`POSTGRES_SCHEMA`].
///
/// Every step is one statement, so concurrent requests are arbitrated by
/// the composite primary key:
///
/// - **claim**: `INSERT .. ON CONFLICT DO UPDATE .. WHERE expires_at <= now`
///   (a free key, an expired record, or a claim past its lease is taken),
///   with the existing row read in the same statement when it is not;
/// - **complete**: `UPDATE .. WHERE claim_token = $own AND status = 'in_progress'`;
/// - **release**: `DELETE .. WHERE claim_token = $own AND status = 'in_progress'`.
///
/// Expired rows are taken over by the next claim; delete the rest with
/// `DELETE FROM idempotency_records WHERE expires_at < now()` from time to
/// time (the `expires_at` index serves it).
///
/// ```no_run
/// # async fn demo() -> Result<(), idem_scope::StoreError> {
/// let store = idem_scope::PgStore::connect("postgres://app@localhost/app").await?;
/// store.create_table().await?; // once, or run POSTGRES_SCHEMA in your migrations
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
}

fn backend(e: sqlx::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

const PK: &str = "scope_version = $1 AND tenant_id = $2 AND principal_id = $3 \
                  AND route = $4 AND ns = $5 AND idem_key = $6";

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn bind_key<'q>(
    q: sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>,
    key: &'q ScopedKey,
) -> sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments> {
    key.columns()
        .as_array()
        .into_iter()
        .fold(q, |q, c| q.bind(c))
}

/// `(record, response)` from the columns `fingerprint, status, claimed_us, response`.
fn existing(row: &PgRow) -> Result<(Record, Option<StoredResponse>), StoreError> {
    let fp: Vec<u8> = row.try_get("fingerprint").map_err(backend)?;
    let fp = Fingerprint::from_slice(&fp).ok_or(StoreError::Corrupt("fingerprint"))?;
    let status: String = row.try_get("status").map_err(backend)?;
    let claimed_us: i64 = row.try_get("claimed_us").map_err(backend)?;
    let response: Option<Vec<u8>> = row.try_get("response").map_err(backend)?;
    let at = UNIX_EPOCH + Duration::from_micros(u64::try_from(claimed_us).unwrap_or(0));
    let state = match status.as_str() {
        "in_progress" => RecordState::InProgress,
        "completed" => RecordState::Completed,
        _ => return Err(StoreError::Corrupt("status")),
    };
    let record = Record {
        state,
        fingerprint: fp,
        claimed_at: at,
    };
    let response = response.map(|r| decode_response(&r)).transpose()?;
    Ok((record, response))
}

impl PgStore {
    /// A store on an existing pool.
    pub fn new(pool: PgPool) -> Self {
        PgStore { pool }
    }

    /// Connects a pool to `url` (`postgres://user@host/db`).
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        PgPool::connect(url)
            .await
            .map(PgStore::new)
            .map_err(backend)
    }

    /// Runs [`POSTGRES_SCHEMA`] (fails if the table exists).
    pub async fn create_table(&self) -> Result<(), StoreError> {
        sqlx::raw_sql(POSTGRES_SCHEMA)
            .execute(&self.pool)
            .await
            .map(drop)
            .map_err(backend)
    }

    /// The pool, e.g. for purging expired rows.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

/// Claims, or reads the row that prevents the claim, in one statement.
/// `new` is true when this statement inserted or took over the row.
const CLAIM: &str = "
WITH claimed AS (
    INSERT INTO idempotency_records AS r
        (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status,
         claim_token, claimed_at, created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress', $8,
            clock_timestamp(), clock_timestamp(), clock_timestamp() + $9 * interval '1 millisecond')
    ON CONFLICT (scope_version, tenant_id, principal_id, route, ns, idem_key) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, status = 'in_progress',
            claim_token = EXCLUDED.claim_token, response_status = NULL, response = NULL,
            claimed_at = EXCLUDED.claimed_at, created_at = EXCLUDED.created_at,
            expires_at = EXCLUDED.expires_at
        WHERE r.expires_at <= clock_timestamp()
    RETURNING 1
)
SELECT true AS new, NULL::bytea AS fingerprint, NULL::text AS status,
       NULL::int8 AS claimed_us, NULL::bytea AS response
FROM claimed
UNION ALL
SELECT false, fingerprint, status,
       (extract(epoch FROM claimed_at) * 1000000)::int8, response
FROM idempotency_records
WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3
  AND route = $4 AND ns = $5 AND idem_key = $6
  AND NOT EXISTS (SELECT 1 FROM claimed)";

impl Store for PgStore {
    async fn claim(
        &self,
        key: &ScopedKey,
        fp: &Fingerprint,
        lease: Duration,
    ) -> Result<Claimed, StoreError> {
        // No row at all: the blocking row was committed after this
        // statement's snapshot (the INSERT saw it, the SELECT did not), or
        // was deleted in between. Running the statement again settles it.
        for _ in 0..5 {
            let token = ClaimToken::mint();
            let q = bind_key(sqlx::query(CLAIM), key)
                .bind(&fp.as_bytes()[..])
                .bind(token.as_str())
                .bind(millis(lease));
            let Some(row) = q.fetch_optional(&self.pool).await.map_err(backend)? else {
                continue;
            };
            if row.try_get::<bool, _>("new").map_err(backend)? {
                return Ok(Claimed::New(token));
            }
            let (record, response) = existing(&row)?;
            return Ok(Claimed::Existing(record, response));
        }
        Err(StoreError::Backend(
            "the claim kept racing with concurrent writers".to_owned(),
        ))
    }

    async fn complete(
        &self,
        key: &ScopedKey,
        claim: &ClaimToken,
        response: &StoredResponse,
        ttl: Duration,
    ) -> Result<bool, StoreError> {
        let sql = format!(
            "UPDATE idempotency_records SET status = 'completed', response_status = $8, \
             response = $9, expires_at = clock_timestamp() + $10 * interval '1 millisecond' \
             WHERE {PK} AND claim_token = $7 AND status = 'in_progress'"
        );
        let done = bind_key(sqlx::query(&sql), key)
            .bind(claim.as_str())
            .bind(i32::from(response.status))
            .bind(encode_response(response))
            .bind(millis(ttl))
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        Ok(done.rows_affected() == 1)
    }

    async fn release(&self, key: &ScopedKey, claim: &ClaimToken) -> Result<bool, StoreError> {
        let sql = format!(
            "DELETE FROM idempotency_records \
             WHERE {PK} AND claim_token = $7 AND status = 'in_progress'"
        );
        let done = bind_key(sqlx::query(&sql), key)
            .bind(claim.as_str())
            .execute(&self.pool)
            .await
            .map_err(backend)?;
        Ok(done.rows_affected() == 1)
    }

    async fn lookup(
        &self,
        key: &ScopedKey,
    ) -> Result<Option<(Record, Option<StoredResponse>)>, StoreError> {
        let sql = format!(
            "SELECT fingerprint, status, (extract(epoch FROM claimed_at) * 1000000)::int8 AS claimed_us, \
             response FROM idempotency_records WHERE {PK} AND expires_at > clock_timestamp()"
        );
        let row = bind_key(sqlx::query(&sql), key)
            .fetch_optional(&self.pool)
            .await
            .map_err(backend)?;
        row.as_ref().map(existing).transpose()
    }
}
