use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use ledgerkit::idem::{ClaimTicket, IdemStore};

pub struct Orders {
    idem: Arc<IdemStore>,
    oms: Arc<oms::Client>,
}

impl Orders {
    pub async fn submit(&self, auth: &gatehouse::Auth, key: &str, cart_id: &str) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&auth.tenant_id, &auth.user_id, "orders.submit", key)?;
        let ticket: ClaimTicket = self.idem.begin(&sk, Duration::from_secs(90)).await?;
        let order = self.oms.submit(&auth.tenant_id, cart_id).await?;
        let body = serde_json::to_vec(&order)?;
        ticket.complete(&body).await?;
        Ok(body)
    }

    pub async fn amend(&self, auth: &gatehouse::Auth, key: &str, order_id: &str, patch: &[u8]) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&auth.tenant_id, &auth.user_id, "orders.amend", key)?;
        self.idem.claim(&sk, Duration::from_secs(90)).await?;
        let amended = match self.oms.amend(order_id, patch).await {
            Ok(a) => a,
            Err(e) => {
                self.idem.release(&sk).await?;
                return Err(e.into());
            }
        };
        let body = serde_json::to_vec(&amended).unwrap_or_default();
        self.idem.complete(&sk, &body).await?;
        Ok(body)
    }

    pub async fn cancel(&self, auth: &gatehouse::Auth, key: &str, order_id: &str) -> anyhow::Result<()> {
        let sk = scoped(&auth.tenant_id, &auth.user_id, "orders.cancel", key)?;
        self.idem.claim(&sk, Duration::from_secs(30)).await?;
        if let Err(e) = self.oms.cancel(order_id).await {
            self.release_quietly(&sk).await;
            return Err(e.into());
        }
        self.idem.complete(&sk, b"{}").await?;
        Ok(())
    }

    async fn release_quietly(&self, sk: &ScopedKey) {
        if let Err(e) = self.idem.release(sk).await {
            tracing::warn!(error = %e, "release failed; lease will expire");
        }
    }
}
