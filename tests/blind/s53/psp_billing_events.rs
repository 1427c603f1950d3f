use std::sync::Arc;

use idem_scope::Namespace;
use serde::Deserialize;

use crate::billing::{ChargeLedger, RefundLedger};
use crate::kvstore::KeyValueStore;

#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ReplayKey {
    pub version: &'static str,
    pub tenant_id: String,
    pub principal_id: String,
    pub route: &'static str,
    pub ns: Namespace,
    pub key: String,
}

#[derive(Deserialize)]
pub struct PspEvent {
    pub event_id: String,
    pub account_id: String,
    pub initiated_by: String,
    pub kind: String,
    pub amount_minor: i64,
}

pub struct BillingEndpoints {
    kv: Arc<KeyValueStore<ReplayKey>>,
    charges: Arc<ChargeLedger>,
    refunds: Arc<RefundLedger>,
}

impl BillingEndpoints {
    pub async fn capture_from_api(&self, headers: &http::HeaderMap, account_id: &str, user_id: &str, amount_minor: i64) -> anyhow::Result<String> {
        let client_key = headers.get("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("missing key"))?.to_str()?.to_owned();
        let key = ReplayKey { version: "v1", tenant_id: account_id.to_owned(), principal_id: user_id.to_owned(), route: "charges.capture", ns: Namespace::Client, key: client_key };
        if let Some(done) = self.kv.get(&key).await? {
            return Ok(done);
        }
        let capture_id = self.charges.capture(account_id, amount_minor).await?;
        self.kv.put(&key, &capture_id).await?;
        Ok(capture_id)
    }

    pub async fn on_psp_event(&self, evt: PspEvent) -> anyhow::Result<()> {
        match evt.kind.as_str() {
            "charge.captured" => {
                let key = ReplayKey { version: "v1", tenant_id: evt.account_id.clone(), principal_id: evt.initiated_by.clone(), route: "charges.capture", ns: Namespace::Client, key: evt.event_id.clone() };
                if self.kv.get(&key).await?.is_none() {
                    let capture_id = self.charges.record_external_capture(&evt.account_id, evt.amount_minor).await?;
                    self.kv.put(&key, &capture_id).await?;
                }
            }
            "refund.settled" => {
                let key = ReplayKey { version: "v1", tenant_id: evt.account_id.clone(), principal_id: evt.initiated_by.clone(), route: "refunds.settle", ns: Namespace::Server, key: evt.event_id.clone() };
                if self.kv.get(&key).await?.is_none() {
                    let refund_id = self.refunds.settle(&evt.account_id, evt.amount_minor).await?;
                    self.kv.put(&key, &refund_id).await?;
                }
            }
            other => tracing::debug!(kind = other, event = %evt.event_id, "ignored psp event"),
        }
        Ok(())
    }
}
