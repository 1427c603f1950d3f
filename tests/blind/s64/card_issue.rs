use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, ClaimGuard};
use sextant::locker::{Locker, SyncLocker};

pub struct IssueCard {
    pub tenant_id: String,
    pub user_id: String,
    pub idempotency_key: String,
    pub product: String,
}

pub struct CardIssuer {
    locker: Arc<Locker>,
    sync_locker: Arc<SyncLocker>,
    processor: crate::processor::Processor,
}

impl CardIssuer {
    pub async fn issue(&self, cmd: &IssueCard) -> eyre::Result<Vec<u8>> {
        let sk = scoped(&cmd.tenant_id, &cmd.user_id, "card_issue", &cmd.idempotency_key)?;
        self.locker.claim(sk.storage_key(), Duration::from_secs(300)).await?;
        let card = match self.processor.issue(&cmd.tenant_id, &cmd.product).await {
            Ok(c) => c,
            Err(e) => {
                self.locker.release(sk.storage_key()).await?;
                return Err(e.into());
            }
        };
        let body = serde_json::to_vec(&card).map_err(|e| {
            let locker = self.locker.clone();
            let k = sk.storage_key().to_owned();
            tokio::spawn(async move { locker.release(&k).await });
            e
        })?;
        self.locker.complete(sk.storage_key(), &body).await?;
        Ok(body)
    }

    pub fn replace_blocking(&self, cmd: &IssueCard) -> eyre::Result<Vec<u8>> {
        let sk = scoped(&cmd.tenant_id, &cmd.user_id, "card_replace", &cmd.idempotency_key)?;
        let locker = self.sync_locker.clone();
        let key = sk.storage_key().to_owned();
        locker.claim(&key, Duration::from_secs(300))?;
        let guard = ClaimGuard::new({
            let locker = locker.clone();
            let key = key.clone();
            move || {
                let _ = locker.release(&key);
            }
        });
        let card = self.processor.replace_blocking(&cmd.tenant_id, &cmd.product)?;
        let body = serde_json::to_vec(&card)?;
        locker.complete(&key, &body)?;
        guard.complete();
        Ok(body)
    }
}
