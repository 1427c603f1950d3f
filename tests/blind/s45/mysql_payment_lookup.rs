use mysql::prelude::*;
use mysql::{Pool, PooledConn};

pub const SCHEMA: &str = r"
CREATE TABLE IF NOT EXISTS api_idempotency (
    idem_key VARCHAR(255) NOT NULL PRIMARY KEY,
    status SMALLINT UNSIGNED NOT NULL,
    body MEDIUMBLOB NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS payment_audit (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    request_id VARCHAR(255) NOT NULL,
    tenant_id VARCHAR(64) NOT NULL,
    status SMALLINT UNSIGNED NOT NULL
);
";

pub struct PaymentsDb {
    pool: Pool,
}

pub struct Incoming<'a> {
    pub headers: &'a [(String, String)],
    pub body: &'a [u8],
    pub tenant_id: String,
}

impl<'a> Incoming<'a> {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

impl PaymentsDb {
    /// Mobile SDK v1 retries with the same X-Request-Id, so we use it to dedupe.
    pub fn create_payment(&self, req: &Incoming<'_>) -> Result<(u16, Vec<u8>), mysql::Error> {
        let x_request_id = req.header("X-Request-Id").unwrap_or_default().to_owned();
        log::info!("create_payment request_id={} tenant={}", x_request_id, req.tenant_id);
        let mut conn: PooledConn = self.pool.get_conn()?;
        let prior: Option<(u16, Vec<u8>)> = conn.exec_first("SELECT status, body FROM api_idempotency WHERE idem_key = ?", (x_request_id.as_str(),))?;
        if let Some(hit) = prior {
            return Ok(hit);
        }
        let (status, body) = self.charge(&mut conn, &req.tenant_id, req.body)?;
        conn.exec_drop("INSERT INTO payment_audit (request_id, tenant_id, status) VALUES (?, ?, ?)", (x_request_id.as_str(), req.tenant_id.as_str(), status))?;
        conn.exec_drop("INSERT INTO api_idempotency (idem_key, status, body) VALUES (?, ?, ?)", (x_request_id.as_str(), status, &body))?;
        Ok((status, body))
    }

    fn charge(&self, conn: &mut PooledConn, tenant_id: &str, body: &[u8]) -> Result<(u16, Vec<u8>), mysql::Error> {
        let amount: i64 = serde_json::from_slice::<serde_json::Value>(body).ok().and_then(|v| v["amount"].as_i64()).unwrap_or(0);
        conn.exec_drop("INSERT INTO payments (tenant_id, amount) VALUES (?, ?)", (tenant_id, amount))?;
        Ok((201, format!("{{\"amount\":{amount}}}").into_bytes()))
    }
}
