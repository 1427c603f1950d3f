//! Bank transfer submission with bounded retries.

use granary::hold::Holds;
use granary::silo::Silo;
use idem_scope::ScopedKey;

pub struct Submitter {
    pub silo: Silo,
    pub holds: Holds,
}

impl Submitter {
    pub async fn submit(&self, key: &ScopedKey, order: &[u8]) -> Option<Vec<u8>> {
        let k = key.storage_key();
        let mut attempt = 0;
        let result = loop {
            attempt += 1;
            if !self.silo.acquire(k).await.unwrap_or(false) {
                break None;
            }
            match crate::bank::submit(order).await {
                Ok(receipt) => {
                    let _ = self.silo.complete(k, &receipt).await;
                    break Some(receipt);
                }
                Err(e) if e.is_retryable() && attempt < 3 => {
                    let _ = self.silo.release(k).await;
                    continue;
                }
                Err(_) => break None,
            }
        };
        result
    }

    pub async fn submit_held(&self, key: &ScopedKey, order: &[u8]) -> anyhow::Result<Vec<u8>> {
        let hold = self.holds.reserve(key.storage_key()).await?;
        let receipt = crate::bank::submit(order).await?;
        hold.complete(&receipt).await?;
        Ok(receipt)
    }
}
