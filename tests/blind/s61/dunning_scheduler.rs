use std::sync::Arc;
use std::time::Duration;

use idem_scope::scoped;
use larder::pantry::Pantry;

/// Payment retries ("dunning") for failed renewals, triggered by the customer
/// ("retry now" button) or by the billing clock.
pub struct Dunning {
    attempts: Arc<Pantry>,
}

pub struct ClockTick {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub invoice_id: String,
}

impl Dunning {
    pub async fn retry_now(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, invoice_id: &str) -> anyhow::Result<bool> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let key = scoped(tenant_id, user_id, "dunning.retry", client_key)?;
        let slot = format!("req/{}", key.storage_key());
        self.attempt_once(&slot, invoice_id).await
    }

    pub async fn on_clock(&self, tick: &ClockTick) -> anyhow::Result<bool> {
        let slot = format!("evt/{}/{}/dunning.retry/{}", tick.tenant_id, tick.user_id, tick.event_id);
        self.attempt_once(&slot, &tick.invoice_id).await
    }

    pub async fn on_clock_summary(&self, tick: &ClockTick) -> anyhow::Result<()> {
        let run_key = format!("s:{}:{}:dunning.summary:{}", tick.tenant_id, tick.user_id, tick.event_id);
        if self.attempts.exists(&run_key).await? {
            return Ok(());
        }
        crate::billing::send_dunning_summary(&tick.tenant_id, &tick.invoice_id).await?;
        self.attempts.put(&run_key, b"sent", Duration::from_secs(3 * 86_400)).await?;
        Ok(())
    }

    async fn attempt_once(&self, slot: &str, invoice_id: &str) -> anyhow::Result<bool> {
        if self.attempts.exists(slot).await? {
            return Ok(false);
        }
        crate::billing::charge_invoice(invoice_id).await?;
        self.attempts.put(slot, invoice_id.as_bytes(), Duration::from_secs(7 * 86_400)).await?;
        Ok(true)
    }
}
