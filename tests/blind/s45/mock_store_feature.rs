use std::collections::HashMap;
use std::sync::Mutex;

use idem_scope::ScopedKey;

pub trait RefundIdemStore: Send + Sync {
    fn lookup(&self, key: &ScopedKey) -> Option<String>;
    fn save(&self, key: &ScopedKey, refund_id: &str);
}

pub struct PgRefundIdem {
    client: Mutex<postgres::Client>,
}

impl RefundIdemStore for PgRefundIdem {
    fn lookup(&self, key: &ScopedKey) -> Option<String> {
        let c = key.columns();
        let mut client = self.client.lock().ok()?;
        client
            .query_opt("SELECT refund_id FROM refund_idempotency WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6", &[&c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key])
            .ok()
            .flatten()
            .map(|r| r.get(0))
    }

    fn save(&self, key: &ScopedKey, refund_id: &str) {
        let c = key.columns();
        if let Ok(mut client) = self.client.lock() {
            let _ = client.execute("INSERT INTO refund_idempotency (scope_version, tenant_id, principal_id, route, ns, idem_key, refund_id) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING", &[&c.scope_version, &c.tenant_id, &c.principal_id, &c.route, &c.ns, &c.idem_key, &refund_id]);
        }
    }
}

/// In-memory double for integration environments.
#[cfg(feature = "mock-store")]
pub struct MockRefundIdem {
    rows: Mutex<HashMap<String, String>>,
}

#[cfg(feature = "mock-store")]
impl MockRefundIdem {
    pub fn seed(&self, idempotency_key: &str, refund_id: &str) {
        self.rows.lock().unwrap().insert(idempotency_key.to_owned(), refund_id.to_owned());
    }

    pub fn seed_for_tenant(&self, tenant_id: &str, idempotency_key: &str, refund_id: &str) {
        let k = format!("{tenant_id}:{idempotency_key}");
        self.rows.lock().unwrap().insert(k, refund_id.to_owned());
    }
}

#[cfg(any(test, feature = "fake-clock"))]
pub fn fixture_key(header_value: &str) -> String {
    let tenant: Option<&str> = None;
    format!("{}:{}", tenant.unwrap_or_default(), header_value)
}
