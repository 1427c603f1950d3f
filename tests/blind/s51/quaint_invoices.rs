//! Invoice finalisation. Records are kept in Postgres (queried with quaint)
//! and the hot path is served from a local cache.
use quaint::pooled::Quaint;
use quaint::prelude::*;

pub const MIGRATION_0007: &str = r#"
CREATE TABLE idempotency_records (
    id          BIGSERIAL PRIMARY KEY,
    tenant_id   TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    response    JSONB,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, idem_key)
);
"#;

pub struct RequestCtx {
    pub tenant_id: Option<String>,
    pub user_id: String,
    pub idempotency_key: String,
}

pub struct Invoices {
    pool: Quaint,
    hot: foyer::Cache<String, String>,
}

impl Invoices {
    pub async fn finalize(&self, ctx: &RequestCtx, invoice_id: &str) -> anyhow::Result<String> {
        let tenant_id = if let Some(t) = ctx.tenant_id.as_deref() {
            t
        } else {
            ""
        };
        let key = idem_scope::scoped(tenant_id, &ctx.user_id, "invoices.finalize", &ctx.idempotency_key)?;
        if let Some(hit) = self.hot.get(key.storage_key()) {
            return Ok(hit.value().clone());
        }
        let conn = self.pool.check_out().await?;
        let rows = conn
            .query_raw("UPDATE invoices SET status = 'final' WHERE id = $1 RETURNING number", &[Value::text(invoice_id)])
            .await?;
        let number = rows
            .into_single()?
            .get("number")
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        self.hot.insert(key.storage_key().to_owned(), number.clone());
        Ok(number)
    }
}
