use std::sync::Arc;

use chrono::{DateTime, Utc};
use idem_scope::scoped;
use ledgerkit::idem::ReplayStore;
use uuid::Uuid;

pub struct Invoice {
    pub id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub amount_minor: i64,
    pub next_attempt_at: Option<DateTime<Utc>>,
}

pub struct Collector {
    replay: Arc<ReplayStore>,
    psp: Arc<psp_client::Client>,
}

impl Collector {
    /// Customer clicks "pay now" in the portal; the portal forwards their Idempotency-Key.
    pub async fn pay_now(&self, headers: &gatehouse::http::HeaderMap, inv: &Invoice) -> anyhow::Result<String> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
        let sk = scoped(&inv.tenant_id, &inv.user_id, "invoices.collect", key)?;
        if let Some(prev) = self.replay.load::<String>(&sk).await? {
            return Ok(prev);
        }
        let charge_id = self.psp.charge(&inv.id, inv.amount_minor).await?;
        self.replay.save(&sk, &charge_id).await?;
        Ok(charge_id)
    }

    /// Dunning: automatic retries on the schedule.
    pub async fn retry_due(&self, due: &[Invoice]) -> anyhow::Result<()> {
        for inv in due.iter().filter(|i| i.next_attempt_at.map_or(false, |t| t <= Utc::now())) {
            let attempt_key = Uuid::new_v4().to_string();
            let sk = scoped(&inv.tenant_id, &inv.user_id, "invoices.collect", &attempt_key)?;
            match self.psp.charge(&inv.id, inv.amount_minor).await {
                Ok(charge_id) => self.replay.save(&sk, &charge_id).await?,
                Err(e) => tracing::warn!(invoice = %inv.id, error = %e, "dunning attempt failed"),
            }
        }
        Ok(())
    }
}
