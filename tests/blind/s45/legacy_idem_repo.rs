//! Repository used by the v1 API crate (callers live in another crate).

use mysql::prelude::*;
use mysql::Pool;

pub const MIGRATION_0007: &str = "
CREATE TABLE IF NOT EXISTS idempotency_cache (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    tenant_id VARCHAR(64) NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,
    response MEDIUMBLOB,
    UNIQUE KEY uq_idem (tenant_id, idempotency_key)
) ENGINE=InnoDB;
";

pub struct LegacyIdemRepo {
    pool: Pool,
    prefix: String,
}

impl LegacyIdemRepo {
    pub fn cached_response(&self, tenant_id: &str, idempotency_key: &str) -> Result<Option<Vec<u8>>, mysql::Error> {
        let mut conn = self.pool.get_conn()?;
        conn.exec_first("SELECT response FROM idempotency_cache WHERE tenant_id = ? AND idempotency_key = ?", (tenant_id, idempotency_key))
    }

    pub fn memo_key(&self, tenant_id: &str, idempotency_key: &str) -> String {
        self.prefix.clone() + tenant_id + ":" + idempotency_key
    }

    pub fn remember_memo(&self, memo: &MemoCache, tenant_id: &str, idempotency_key: &str, body: &[u8]) {
        memo.put(&self.memo_key(tenant_id, idempotency_key), body);
    }
}
