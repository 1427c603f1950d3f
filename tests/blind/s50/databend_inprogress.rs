//! Invoice finalisation on Databend; idempotency rows live next to the invoices.
use databend_driver::{params, Client, Connection};
use http::HeaderMap;
use idem_scope::scoped;

pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version VARCHAR NOT NULL,
    tenant_id     VARCHAR NOT NULL,
    principal_id  VARCHAR NOT NULL,
    route         VARCHAR NOT NULL,
    ns            VARCHAR NOT NULL,
    idem_key      VARCHAR NOT NULL,
    status        VARCHAR NOT NULL,
    response      VARCHAR,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
"#;

pub struct Invoices {
    client: Client,
}

impl Invoices {
    pub async fn finalize(&self, h: &HeaderMap, tenant_id: &str, user_id: &str, invoice: &str) -> anyhow::Result<String> {
        let k = h.get("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("400"))?.to_str()?;
        let key = scoped(tenant_id, user_id, "invoices.finalize", k)?;
        let c = key.columns();
        let conn = self.client.get_conn().await?;
        conn.exec("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES (?, ?, ?, ?, ?, ?, 'in_progress')", params![c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key]).await?;
        let total = conn.query_row(&format!("SELECT sum(amount) FROM invoice_lines WHERE invoice_id = '{invoice}'")).await?;
        let total = total.ok_or_else(|| anyhow::anyhow!("404 invoice"))?;
        let body = format!("{{\"invoice\":\"{invoice}\",\"total\":{:?}}}", total.values());
        conn.exec("UPDATE idempotency_records SET status = 'completed', response = ? WHERE scope_version = ? AND tenant_id = ? AND principal_id = ? AND route = ? AND ns = ? AND idem_key = ?", params![body.as_str(), c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key]).await?;
        Ok(body)
    }

    pub async fn void(&self, h: &HeaderMap, tenant_id: &str, user_id: &str, invoice: &str) -> anyhow::Result<String> {
        let k = h.get("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("400"))?.to_str()?;
        let key = scoped(tenant_id, user_id, "invoices.void", k)?;
        let c = key.columns();
        let conn = self.client.get_conn().await?;
        conn.exec("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES (?, ?, ?, ?, ?, ?, 'in_progress')", params![c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key]).await?;
        let res = conn.exec(&format!("ALTER TABLE invoices UPDATE voided = 1 WHERE id = '{invoice}'")).await;
        if let Err(e) = res {
            conn.exec("DELETE FROM idempotency_records WHERE scope_version = ? AND tenant_id = ? AND principal_id = ? AND route = ? AND ns = ? AND idem_key = ?", params![c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key]).await.ok();
            return Err(e.into());
        }
        let body = format!("{{\"voided\":\"{invoice}\"}}");
        conn.exec("UPDATE idempotency_records SET status = 'completed', response = ? WHERE scope_version = ? AND tenant_id = ? AND principal_id = ? AND route = ? AND ns = ? AND idem_key = ?", params![body.as_str(), c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key]).await?;
        Ok(body)
    }
}
