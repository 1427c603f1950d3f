use std::sync::Arc;
use std::time::Duration;

use quarry::kv::Vault;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IdempotencyPolicy {
    pub window: Duration,
    pub replay_headers: bool,
    pub max_body: usize,
}

impl Default for IdempotencyPolicy {
    fn default() -> Self {
        Self { window: Duration::from_secs(86_400), replay_headers: true, max_body: 1 << 20 }
    }
}

/// Storage for the invoicing service: rendered PDFs, replayable submit
/// responses and per-tenant retry policies.
pub struct InvoiceRepo {
    responses: Arc<Vault>,
    pdfs: Arc<Vault>,
    policies: Arc<Vault>,
}

impl InvoiceRepo {
    pub fn new(responses: Arc<Vault>, pdfs: Arc<Vault>, policies: Arc<Vault>) -> Self {
        Self { responses, pdfs, policies }
    }

    /// Stores the response of a submitted invoice so a retry gets the same answer.
    pub async fn remember(
        &self,
        tenant_id: &str,
        user_id: &str,
        idempotency_key: &str,
        response: &[u8],
    ) -> anyhow::Result<()> {
        let route = "invoices.submit";
        let slot = format!("{tenant_id}:{user_id}:{route}:{idempotency_key}");
        self.responses.put(&slot, response.to_vec()).await?;
        Ok(())
    }

    pub async fn cached_pdf(&self, tenant_id: &str, invoice_id: u64) -> anyhow::Result<Option<Vec<u8>>> {
        let path = format!("invoice:{}:{}:pdf", tenant_id, invoice_id);
        Ok(self.pdfs.get(&path).await?)
    }

    pub async fn store_pdf(&self, tenant_id: &str, invoice_id: u64, pdf: Vec<u8>) -> anyhow::Result<()> {
        let path = format!("invoice:{}:{}:pdf", tenant_id, invoice_id);
        self.pdfs.put(&path, pdf).await?;
        Ok(())
    }

    pub async fn save_policy(&self, tenant_id: &str, idempotency: IdempotencyPolicy) -> anyhow::Result<()> {
        let mut encoded = Vec::new();
        ciborium::into_writer(&idempotency, &mut encoded)?;
        self.policies.put(tenant_id, encoded).await?;
        Ok(())
    }
}
