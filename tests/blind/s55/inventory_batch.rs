use ferrum::idem::ClaimStore;
use idem_scope::scoped;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct AdjustLine {
    #[serde(rename = "Idempotency-Key")]
    pub client_ref: String,
    pub sku: String,
    pub delta: i32,
}

#[derive(Deserialize)]
pub struct AdjustBatch {
    pub warehouse: String,
    pub lines: Vec<AdjustLine>,
}

#[derive(Serialize)]
pub enum LineResult {
    Applied { sku: String, on_hand: i64 },
    Duplicate { sku: String },
    Rejected { sku: String, reason: &'static str },
}

pub struct InventoryApi {
    store: ClaimStore,
    inventory: stock::Client,
}

impl InventoryApi {
    pub async fn adjust_batch(&self, tenant: &str, user: &str, batch: AdjustBatch) -> anyhow::Result<Vec<LineResult>> {
        let mut results = Vec::with_capacity(batch.lines.len());
        for line in batch.lines {
            let Ok(sk) = scoped(tenant, user, "inventory.adjust", &line.client_ref) else {
                results.push(LineResult::Rejected { sku: line.sku, reason: "invalid key" });
                continue;
            };
            if !self.store.try_claim(&sk).await? {
                results.push(LineResult::Duplicate { sku: line.sku });
                continue;
            }
            if line.delta == 0 {
                results.push(LineResult::Rejected { sku: line.sku, reason: "zero delta" });
                continue;
            }
            let on_hand = self.inventory.adjust(tenant, &batch.warehouse, &line.sku, line.delta).await?;
            self.store.mark_done(&sk, &on_hand.to_be_bytes()).await?;
            results.push(LineResult::Applied { sku: line.sku, on_hand });
        }
        Ok(results)
    }

    pub async fn adjust_one(&self, tenant: &str, user: &str, warehouse: &str, line: AdjustLine) -> anyhow::Result<LineResult> {
        let sk = scoped(tenant, user, "inventory.adjust", &line.client_ref)?;
        if !self.store.try_claim(&sk).await? {
            return Ok(LineResult::Duplicate { sku: line.sku });
        }
        let on_hand = match self.inventory.adjust(tenant, warehouse, &line.sku, line.delta).await {
            Ok(n) => n,
            Err(e) => {
                self.store.release(&sk).await?;
                return Err(e.into());
            }
        };
        self.store.mark_done(&sk, &on_hand.to_be_bytes()).await?;
        Ok(LineResult::Applied { sku: line.sku, on_hand })
    }
}
