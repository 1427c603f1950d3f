use std::sync::Arc;

use idem_scope::{scoped, Problem, ScopedKey};
use ledgerkit::idem::RecordStore;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct RefundRequested {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub payment_id: String,
    pub amount_minor: i64,
}

pub struct Refunds {
    records: Arc<RecordStore>,
    psp: Arc<psp_client::Client>,
}

impl Refunds {
    async fn execute(&self, sk: &ScopedKey, payment_id: &str, amount_minor: i64) -> Result<Vec<u8>, Problem> {
        if let Some(rec) = self.records.get(sk).await? {
            return Ok(rec.body().to_vec());
        }
        let refund = self.psp.refund(payment_id, amount_minor).await?;
        let body = serde_json::to_vec(&refund).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.records.put(sk, idem_scope::Record::completed_raw(&body)).await?;
        Ok(body)
    }

    pub async fn http_create(&self, auth: &gatehouse::Auth, req: &gatehouse::http::Request) -> Result<Vec<u8>, Problem> {
        let key = req.header_str("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let body: serde_json::Value = req.json_sync().map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let payment_id = body["payment_id"].as_str().unwrap_or_default();
        let amount_minor = body["amount_minor"].as_i64().unwrap_or(0);
        let sk = scoped(&auth.tenant_id, &auth.user_id, "refunds.create", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.execute(&sk, payment_id, amount_minor).await
    }

    pub fn consume(self: Arc<Self>, nc: nats::Connection) -> std::io::Result<()> {
        let sub = nc.subscribe("payments.refund_requested")?;
        let rt = tokio::runtime::Handle::current();
        for msg in sub.messages() {
            let Ok(evt) = serde_json::from_slice::<RefundRequested>(&msg.data) else { continue };
            let this = self.clone();
            rt.spawn(async move {
                let sk = match scoped(&evt.tenant_id, &evt.user_id, "refunds.create", &format!("replay:{}", evt.event_id)) {
                    Ok(sk) => sk,
                    Err(e) => return tracing::error!(error = %e, "bad refund event"),
                };
                if let Err(p) = this.execute(&sk, &evt.payment_id, evt.amount_minor).await {
                    tracing::warn!(status = p.status(), "refund event failed");
                }
            });
        }
        Ok(())
    }
}
