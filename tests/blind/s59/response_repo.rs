use idem_scope::{Fingerprint, ScopedKey};
use sluice::sql::{query, Pool, Row, SqlError};

#[derive(Debug, Clone)]
pub struct CachedResponse {
    pub status: u16,
    pub body: Vec<u8>,
    pub fingerprint: Vec<u8>,
}

impl CachedResponse {
    fn from_row(row: &Row) -> Result<Self, SqlError> {
        Ok(Self { status: row.get::<i32>("status")? as u16, body: row.get("body")?, fingerprint: row.get("fingerprint")? })
    }
}

pub struct ResponseRepo {
    pool: Pool,
}

impl ResponseRepo {
    pub fn new(pool: Pool) -> Self {
        Self { pool }
    }

    pub async fn find(&self, key: &ScopedKey) -> Result<Option<CachedResponse>, SqlError> {
        let c = key.columns();
        let row = query(
            "SELECT status, body, fingerprint FROM idempotency_responses \
             WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6",
        )
        .bind(c.scope_version)
        .bind(c.tenant_id)
        .bind(c.principal_id)
        .bind(c.route)
        .bind(c.ns)
        .bind(c.idem_key)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(CachedResponse::from_row).transpose()
    }

    /// Rows written before the scoped table existed; read-only until they expire.
    pub async fn find_legacy(&self, headers: &http::HeaderMap) -> Result<Option<CachedResponse>, SqlError> {
        let Some(key) = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
            return Ok(None);
        };
        let row = query("SELECT status, body, fingerprint FROM legacy_idempotency_responses WHERE idem_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(CachedResponse::from_row).transpose()
    }

    pub async fn save(&self, key: &ScopedKey, fp: &Fingerprint, status: u16, body: &[u8]) -> Result<(), SqlError> {
        let c = key.columns();
        query(
            "INSERT INTO idempotency_responses (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status, body) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING",
        )
        .bind(c.scope_version)
        .bind(c.tenant_id)
        .bind(c.principal_id)
        .bind(c.route)
        .bind(c.ns)
        .bind(c.idem_key)
        .bind(fp.as_bytes().as_slice())
        .bind(status as i32)
        .bind(body)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
