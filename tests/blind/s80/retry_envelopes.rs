//! Worker for the PCS retry queue: submissions to the port community system
//! that failed are re-driven from here. The envelope is produced by the
//! submission service.

use ballast::hold::Hold;
use ballast::twin::TwinHold;
use serde::Deserialize;
use tideway::{Consumer, Delivery};

#[derive(Deserialize)]
pub struct RetryEnvelope {
    pub org_id: String,
    pub idem_key: String,
    pub document: String,
    pub body: Vec<u8>,
}

impl RetryEnvelope {
    fn owner_and_key(&self) -> (&str, &str) {
        (self.org_id.as_str(), self.idem_key.as_str())
    }
}

pub struct RetryWorker {
    pub outcomes: TwinHold,
    pub attempts: Hold,
    pub pcs: pcs_client::Client,
}

impl RetryWorker {
    pub async fn drain(&self, mut consumer: Consumer) -> anyhow::Result<()> {
        while let Some(d) = consumer.next().await {
            self.handle(&d).await?;
            d.ack().await?;
        }
        Ok(())
    }

    async fn handle(&self, d: &Delivery) -> anyhow::Result<()> {
        let env: RetryEnvelope = serde_json::from_slice(d.body())?;
        let attempt_key = format!("retry-attempt:{}", d.id());
        let tries = self.attempts.incr(&attempt_key).await?;
        if tries > 5 {
            d.dead_letter().await?;
            return Ok(());
        }

        let (owner, k) = env.owner_and_key();
        if self.outcomes.get(owner, k).await?.is_some() {
            return Ok(());
        }
        let receipt = self.pcs.submit(&env.document, &env.body).await?;
        self.outcomes.put(owner, k, receipt.as_bytes()).await?;
        Ok(())
    }
}
