use std::time::Duration;

use idem_scope::scoped;
use ledgerkit::idem::{IdemStore, TryClaim};
use ledgerkit::inbox::{Inbox, PendingCommand};
use tokio::sync::Semaphore;

/// Commands accepted by the public API and executed asynchronously.
/// `client_key` is the `Idempotency-Key` the API client sent with the command.
pub struct Drain {
    inbox: Inbox,
    idem: IdemStore,
    permits: Semaphore,
}

impl Drain {
    pub async fn run_once(&self, max: usize) -> anyhow::Result<usize> {
        let batch: Vec<PendingCommand> = self.inbox.next_batch(max).await?;
        let mut done = 0;
        for cmd in batch {
            let _permit = self.permits.acquire().await?;
            let sk = match scoped(&cmd.tenant_id, &cmd.principal_id, &cmd.route, &cmd.client_key) {
                Ok(sk) => sk,
                Err(e) => {
                    self.inbox.reject(&cmd.id, &e.to_string()).await?;
                    continue;
                }
            };
            if self.idem.try_claim(&sk, Duration::from_secs(120)).await? != TryClaim::Acquired {
                continue;
            }
            let Some(handler) = handlers::lookup(&cmd.route) else {
                tracing::warn!(route = %cmd.route, "no handler registered");
                continue;
            };
            let outcome = handler.execute(&cmd.payload).await?;
            self.idem.finish(&sk, &outcome).await?;
            self.inbox.ack(&cmd.id).await?;
            done += 1;
        }
        Ok(done)
    }
}
