use std::sync::Arc;

use cobble::queue::{Consumer, Delivery};
use cobble::vault::Vault;
use idem_scope::{scoped, scoped_server, Fingerprint, Problem};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub struct PriceSync {
    pub vault: Arc<Vault>,
    pub consumer: Consumer,
}

impl PriceSync {
    pub async fn set_price(&self, ex: Exchange, caller: Caller, sku: String, price: u64) -> Result<Reply, Reply> {
        let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "price.set", raw).map_err(|_| Reply::status(Status::BadRequest))?;
        if self.vault.set_nx(sk.storage_key(), &price.to_be_bytes()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
            crate::catalog::set_price(&caller.tenant_id, &sku, price).await;
        }
        Ok(Reply::status(Status::Accepted))
    }

    pub async fn consume(&self) -> anyhow::Result<()> {
        while let Some(d) = self.consumer.next().await? {
            self.apply(&d).await?;
            self.consumer.ack(&d).await?;
        }
        Ok(())
    }

    async fn apply(&self, d: &Delivery) -> anyhow::Result<()> {
        let message_id = d.message_id.as_str();
        log::debug!("price update {message_id} from {}", d.source);
        let sk = scoped_server(&d.tenant_id, &d.source, "price.set", message_id)?;
        let fp = Fingerprint::of("price.set", &d.body);
        if self.vault.set_nx(sk.storage_key(), fp.as_bytes()).await? {
            let update: crate::catalog::PriceUpdate = serde_json::from_slice(&d.body)?;
            crate::catalog::set_price(&d.tenant_id, &update.sku, update.price).await;
        }
        Ok(())
    }
}
