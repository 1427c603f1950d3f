use std::time::Duration;

use http::HeaderMap;
use idem_scope::{scoped, ScopedKey};
use serde::{Deserialize, Serialize};

use crate::payouts::{PayoutGateway, PayoutResult};
use crate::store::RecordStore;

const ROUTE: &str = "payout.send";

#[derive(Debug, Deserialize, Serialize)]
pub struct PayoutCmd {
    pub beneficiary_id: String,
    pub amount_minor: i64,
}

#[derive(Debug, Deserialize)]
pub struct FailedDelivery {
    pub delivery_id: String,
    pub tenant_id: String,
    pub principal_id: String,
    pub cmd: PayoutCmd,
    pub attempts: u32,
}

pub struct PayoutSender {
    replays: RecordStore,
    gateway: PayoutGateway,
}

impl PayoutSender {
    async fn send_once(&self, key: &ScopedKey, tenant_id: &str, cmd: &PayoutCmd) -> anyhow::Result<PayoutResult> {
        if let Some(prev) = self.replays.get(key).await? {
            return Ok(prev);
        }
        let result = self.gateway.send(tenant_id, &cmd.beneficiary_id, cmd.amount_minor).await?;
        self.replays.put(key, &result, Duration::from_secs(86_400)).await?;
        Ok(result)
    }

    pub async fn send_from_api(&self, tenant_id: &str, user_id: &str, headers: &HeaderMap, cmd: PayoutCmd) -> anyhow::Result<PayoutResult> {
        let idempotency_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
        let key = scoped(tenant_id, user_id, ROUTE, idempotency_key)?;
        self.send_once(&key, tenant_id, &cmd).await
    }

    pub async fn redeliver(&self, failed: Vec<FailedDelivery>) -> Vec<anyhow::Result<PayoutResult>> {
        let mut out = Vec::with_capacity(failed.len());
        for d in failed.into_iter().filter(|d| d.attempts < 8) {
            let res = async {
                let key = scoped(&d.tenant_id, &d.principal_id, ROUTE, &d.delivery_id)?;
                self.send_once(&key, &d.tenant_id, &d.cmd).await
            }
            .await;
            out.push(res);
        }
        out
    }
}
