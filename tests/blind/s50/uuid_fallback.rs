//! Transfer initiation; older mobile clients do not send an idempotency key.
use http::HeaderMap;
use idem_scope::scoped;
use scc::HashMap as SccMap;
use uuid::Uuid;

pub struct Transfers {
    idem: SccMap<String, String>,
}

impl Transfers {
    pub async fn initiate(&self, h: &HeaderMap, tenant_id: &str, user_id: &str, cents: u64) -> Result<String, String> {
        let supplied = h.get("Idempotency-Key").and_then(|v| v.to_str().ok());
        let k = supplied.map(str::to_owned).unwrap_or_else(|| Uuid::new_v4().to_string());
        let key = scoped(tenant_id, user_id, "transfers.initiate", &k).map_err(|e| e.to_string())?;
        let transfer_id = Uuid::new_v4();
        let body = format!("{{\"transfer\":\"{transfer_id}\",\"cents\":{cents}}}");
        let entry = self.idem.entry_async(key.storage_key().to_owned()).await.or_insert(body);
        Ok(entry.get().clone())
    }

    pub async fn cancel(&self, h: &HeaderMap, tenant_id: &str, user_id: &str, transfer: &str) -> Result<String, String> {
        let Some(k) = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
            return Err("400 Idempotency-Key required".into());
        };
        let trace_id = Uuid::new_v4();
        tracing::info!(%trace_id, %transfer, "cancel");
        let key = scoped(tenant_id, user_id, "transfers.cancel", k).map_err(|e| e.to_string())?;
        let entry = self.idem.entry_async(key.storage_key().to_owned()).await.or_insert_with(|| "{\"cancelled\":true}".into());
        Ok(entry.get().clone())
    }
}
