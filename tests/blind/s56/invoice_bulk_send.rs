use std::time::{Duration, Instant};

use idem_scope::scoped;
use serde::Deserialize;

use crate::replay_store::{AsyncStore, Claimed};

/// One line of a bulk request; `idempotency_key` is supplied per line by the
/// client and documented as that line's Idempotency-Key.
#[derive(Deserialize)]
pub struct BulkLine {
    pub invoice_id: String,
    pub idempotency_key: String,
}

pub struct BulkSender {
    store: AsyncStore,
    mailer: crate::mail::Mailer,
}

impl BulkSender {
    pub async fn send_all(&self, caller: &crate::auth::Caller, lines: Vec<BulkLine>) -> anyhow::Result<usize> {
        let deadline = Instant::now() + Duration::from_secs(25);
        let mut sent = 0;
        for line in &lines {
            let sk = scoped(&caller.tenant_id, &caller.user_id, "invoices.bulk_send", &line.idempotency_key)?;
            if let Claimed::Existing(..) = self.store.try_acquire(&sk).await? {
                continue;
            }
            if Instant::now() > deadline {
                log::warn!("bulk send hit its deadline after {sent} invoices");
                break;
            }
            let outcome = self.mailer.send_invoice(&caller.tenant_id, &line.invoice_id).await;
            let body = serde_json::to_vec(&outcome.is_ok())?;
            self.store.mark_done(&sk, &body).await?;
            sent += 1;
        }
        Ok(sent)
    }

    pub async fn send_one(&self, caller: &crate::auth::Caller, line: BulkLine) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&caller.tenant_id, &caller.user_id, "invoices.send", &line.idempotency_key)?;
        self.store.claim(&sk).await?;
        let outcome = match self.mailer.send_invoice(&caller.tenant_id, &line.invoice_id).await {
            Ok(o) => o,
            Err(e) => {
                self.store.release(&sk).await?;
                return Err(e.into());
            }
        };
        let body = serde_json::to_vec(&outcome).unwrap_or_default();
        self.store.complete(&sk, &body).await?;
        Ok(body)
    }
}
