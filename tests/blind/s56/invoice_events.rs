use std::sync::Arc;

use bytes::Bytes;
use dashmap::DashMap;
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct InvoiceEvent {
    pub id: String,
    pub tenant_id: String,
    pub invoice_id: String,
    pub status: String,
}

#[derive(Clone)]
pub struct InvoiceSync {
    applied: Arc<DashMap<String, Bytes>>,
    invoices: crate::invoices::Repo,
}

impl InvoiceSync {
    pub async fn void_invoice(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, invoice_id: &str) -> anyhow::Result<Bytes> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "invoices.void", key)?;
        if let Some(prev) = self.applied.get(sk.storage_key()) {
            return Ok(prev.clone());
        }
        let voided = self.invoices.void(&caller.tenant_id, invoice_id).await?;
        let out = Bytes::from(serde_json::to_vec(&voided)?);
        self.applied.insert(sk.storage_key().to_owned(), out.clone());
        Ok(out)
    }

    pub async fn on_provider_event(&self, evt: InvoiceEvent) -> anyhow::Result<()> {
        let slot = format!("s:{}", evt.id);
        if self.applied.contains_key(&slot) {
            log::debug!("invoice event {} seen before", evt.id);
            return Ok(());
        }
        self.invoices.set_status(&evt.tenant_id, &evt.invoice_id, &evt.status).await?;
        self.applied.insert(slot, Bytes::from(evt.status.clone()));
        Ok(())
    }
}
