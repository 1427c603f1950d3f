//! Journal postings through the SQL record table (PostgreSQL).

use granary::sql::Conn;
use idem_scope::{Fingerprint, ScopedKey};

pub struct Journal {
    conn: Conn,
}

impl Journal {
    pub async fn post(&self, key: &ScopedKey, raw: &[u8]) -> anyhow::Result<Vec<u8>> {
        let c = key.columns();
        let fp = Fingerprint::of(c.route, raw);
        self.conn.sql("INSERT INTO idempotency_journal (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress')").bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key).bind(fp.as_bytes().as_slice()).exec().await?;
        let posting = crate::ledger::post(raw).await.expect("ledger unavailable");
        self.conn.sql("UPDATE idempotency_journal SET status = 'completed', response = $1 WHERE tenant_id = $2 AND principal_id = $3 AND route = $4 AND idem_key = $5").bind(&posting).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.idem_key).exec().await?;
        Ok(posting)
    }

    pub async fn reverse(&self, key: &ScopedKey, raw: &[u8]) -> anyhow::Result<Vec<u8>> {
        let c = key.columns();
        let fp = Fingerprint::of(c.route, raw);
        self.conn.sql("INSERT INTO idempotency_journal (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress')").bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key).bind(fp.as_bytes().as_slice()).exec().await?;
        let posting = match crate::ledger::reverse(raw).await {
            Ok(p) => p,
            Err(e) => {
                self.conn.sql("DELETE FROM idempotency_journal WHERE tenant_id = $1 AND principal_id = $2 AND route = $3 AND idem_key = $4").bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.idem_key).exec().await?;
                return Err(e.into());
            }
        };
        self.conn.sql("UPDATE idempotency_journal SET status = 'completed', response = $1 WHERE tenant_id = $2 AND principal_id = $3 AND route = $4 AND idem_key = $5").bind(&posting).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.idem_key).exec().await?;
        Ok(posting)
    }
}
