use std::sync::Arc;

use idem_scope::{scoped, ScopedKey};
use ledgerkit::blocking::IdemTable;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct BatchItem {
    /// Per-item idempotency key chosen by the client (same semantics as the `Idempotency-Key` header).
    pub item_key: String,
    pub beneficiary: String,
    pub amount_minor: i64,
}

#[derive(Debug, Deserialize)]
pub struct PayoutBatch {
    pub items: Vec<BatchItem>,
}

pub struct BatchProcessor {
    table: Arc<IdemTable>,
    rail: Arc<rails::Sync>,
}

impl BatchProcessor {
    fn key_for(&self, tenant_id: &str, user_id: &str, item: &BatchItem) -> anyhow::Result<ScopedKey> {
        Ok(scoped(tenant_id, user_id, "payouts.batch_item", &item.item_key)?)
    }

    pub fn process(&self, tenant_id: &str, user_id: &str, batch: &PayoutBatch) -> anyhow::Result<Vec<String>> {
        let mut receipts = Vec::with_capacity(batch.items.len());
        batch.items.iter().try_for_each(|item| -> anyhow::Result<()> {
            let sk = self.key_for(tenant_id, user_id, item)?;
            if let Some(r) = self.table.completed(&sk)? {
                receipts.push(String::from_utf8(r)?);
                return Ok(());
            }
            self.table.claim(&sk)?;
            let receipt = self.rail.pay(tenant_id, &item.beneficiary, item.amount_minor)?;
            self.table.complete(&sk, receipt.as_bytes())?;
            receipts.push(receipt);
            Ok(())
        })?;
        Ok(receipts)
    }
}
