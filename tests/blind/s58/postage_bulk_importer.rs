use std::time::Duration;

use cairn::kv::Bucket;
use idem_scope::scoped;
use postage::mpsc::Receiver;
use postage::prelude::Stream;

pub struct ImportLine {
    pub sku: String,
    pub quantity: i64,
    /// Per-line idempotency key; the bulk API copies it from each line's Idempotency-Key.
    pub line_key: String,
}

pub struct ImportBatch {
    pub tenant_id: String,
    pub user_id: String,
    pub lines: Vec<ImportLine>,
}

pub struct Importer {
    records: Bucket,
    inventory: Bucket,
}

impl Importer {
    pub async fn run(self, mut inbox: Receiver<ImportBatch>) {
        while let Some(batch) = inbox.recv().await {
            if let Err(e) = self.import(batch).await {
                tracing::warn!(error = %e, "batch import failed");
            }
        }
    }

    async fn import(&self, batch: ImportBatch) -> anyhow::Result<()> {
        for line in &batch.lines {
            let sk = scoped(&batch.tenant_id, &batch.user_id, "inventory.import", &line.line_key)?;
            if !self.records.claim(sk.storage_key(), Duration::from_secs(300)).await? {
                continue;
            }
            if line.quantity < 0 {
                tracing::warn!(sku = %line.sku, "negative quantity skipped");
                continue;
            }
            let stock_key = format!("stock:{}:{}", batch.tenant_id, line.sku);
            self.inventory.incr(&stock_key, line.quantity).await?;
            self.records.complete(sk.storage_key(), b"imported").await?;
        }
        Ok(())
    }
}
