//! Persistence for queued replay requests (library; the gateway crate fills
//! the struct).

use granary::silo::Silo;

pub struct ReplayRequest {
    pub idempotency_key: String,
    pub org_id: String,
    pub body: Vec<u8>,
    pub attempts: u32,
}

pub struct ReplayRequests {
    silo: Silo,
}

impl ReplayRequests {
    pub async fn store(&self, req: &ReplayRequest) -> anyhow::Result<()> {
        self.silo.put(&req.idempotency_key, req.body.clone()).await?;
        Ok(())
    }

    pub async fn bump(&self, req: &ReplayRequest) -> anyhow::Result<()> {
        let counter = format!("replay-attempts/{}", req.org_id);
        self.silo.incr(&counter, 1).await?;
        tracing::debug!(key = %req.idempotency_key, attempts = req.attempts, "replay queued");
        Ok(())
    }
}
