use std::sync::Arc;

use cairn::records::Records;
use idem_scope::scoped;
use serde::{Deserialize, Serialize};

use crate::provider::{ChargeOutcome, Provider};

#[derive(Clone, Deserialize, Serialize)]
pub struct ChargeRequest {
    pub amount_minor: i64,
    pub currency: String,
    pub card_token: String,
}

pub struct Dispatcher {
    records: Arc<Records>,
    provider: Arc<Provider>,
}

impl Dispatcher {
    pub fn dispatch(
        &self,
        headers: &http::HeaderMap,
        tenant_id: &str,
        user_id: &str,
        req: ChargeRequest,
    ) -> anyhow::Result<tokio::task::JoinHandle<anyhow::Result<ChargeOutcome>>> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let sk = scoped(tenant_id, user_id, "charges.create", key)?;
        let records = Arc::clone(&self.records);
        let provider = Arc::clone(&self.provider);

        Ok(tokio::spawn(async move {
            records.mark_in_progress(sk.storage_key()).await?;
            let outcome = provider.charge(&req.card_token, req.amount_minor, &req.currency).await?;
            let body = serde_json::to_vec(&outcome)?;
            records.mark_done(sk.storage_key(), &body).await?;
            Ok(outcome)
        }))
    }

    pub fn dispatch_with_timer(&self, metrics: &crate::metrics::Registry, req: ChargeRequest) -> anyhow::Result<()> {
        let timer = metrics.start("charges.validate");
        anyhow::ensure!(req.amount_minor > 0, "amount must be positive");
        anyhow::ensure!(req.currency.len() == 3, "currency must be ISO 4217");
        timer.finish();
        Ok(())
    }
}
