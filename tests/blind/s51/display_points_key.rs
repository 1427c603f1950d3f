//! Loyalty points. Awards are deduplicated with a typed key whose textual form
//! is what the ledger cache stores.
use std::fmt;

use http::HeaderMap;

pub struct DedupKey<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub action: &'static str,
    pub client: &'a str,
}

impl fmt::Display for DedupKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}|{}|{}|{}", self.tenant_id, self.user_id, self.action, self.client)
    }
}

pub struct CatalogKey<'a> {
    pub tenant_id: &'a str,
    pub sku: &'a str,
}

impl fmt::Display for CatalogKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "catalog/{}/{}", self.tenant_id, self.sku)
    }
}

pub struct Points {
    ledger: foyer::Cache<String, i64>,
    catalog: foyer::Cache<String, i64>,
}

impl Points {
    pub fn award(&self, tenant_id: &str, user_id: &str, headers: &HeaderMap, sku: &str) -> anyhow::Result<i64> {
        let client = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
        let dk = DedupKey { tenant_id, user_id, action: "points.award", client };
        let k = dk.to_string();
        if let Some(v) = self.ledger.get(&k) {
            return Ok(*v.value());
        }
        let price = self
            .catalog
            .get(&CatalogKey { tenant_id, sku }.to_string())
            .map(|e| *e.value())
            .unwrap_or_default();
        self.ledger.insert(k, price);
        Ok(price)
    }
}
