use gimbal::{Ctx, Json, Reply};
use pyxis::queue::{Consumer, Delivery};
use pyxis::tuple_kv::TupleKv;
use serde::Deserialize;
use tracing::{info, warn};

use crate::credits::{CreditError, Credits};

#[derive(Deserialize)]
pub struct GrantCredits {
    pub amount: i64,
    pub reason: String,
}

#[derive(Deserialize)]
struct CreditMessage {
    tenant_id: String,
    user_id: String,
    amount: i64,
}

pub struct CreditService {
    grants: TupleKv,
    credits: Credits,
}

impl CreditService {
    pub async fn grant(&self, ctx: Ctx, Json(req): Json<GrantCredits>) -> Result<Reply, CreditError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(CreditError::MissingKey)?;
        let slot = (auth.tenant_id.as_str(), auth.user_id.as_str(), "credits.grant", k);
        if let Some(prev) = self.grants.get(&slot).await? {
            return Ok(Reply::replay(prev));
        }
        let balance = self.credits.add(&auth.tenant_id, &auth.user_id, req.amount, &req.reason).await?;
        self.grants.put(&slot, &balance.to_json()).await?;
        Ok(Reply::created(balance.to_json()))
    }

    pub async fn consume(&self, mut consumer: Consumer) -> Result<(), CreditError> {
        while let Some(delivery) = consumer.next().await? {
            if let Err(e) = self.on_delivery(&delivery).await {
                warn!(error = %e, delivery_id = %delivery.id(), "credit message failed");
                delivery.nack().await?;
                continue;
            }
            delivery.ack().await?;
        }
        Ok(())
    }

    async fn on_delivery(&self, delivery: &Delivery) -> Result<(), CreditError> {
        let msg: CreditMessage = serde_json::from_slice(delivery.body())?;
        info!(delivery_id = %delivery.id(), "credit message received");
        let slot = (msg.tenant_id.as_str(), msg.user_id.as_str(), "credits.grant", delivery.id());
        if self.grants.get(&slot).await?.is_some() {
            return Ok(());
        }
        let balance = self.credits.add(&msg.tenant_id, &msg.user_id, msg.amount, "promo").await?;
        self.grants.put(&slot, &balance.to_json()).await?;
        Ok(())
    }
}
