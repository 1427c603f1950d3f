use gimbal::{Ctx, RawBody, Reply};
use idem_scope::{scoped, scoped_server, Fingerprint};
use pyxis::kv::Shelf;

use crate::orders::{OrderError, Orders};

pub struct OrderIntake {
    pub replays: Shelf,
    pub orders: Orders,
}

impl OrderIntake {
    pub async fn place(&self, ctx: Ctx, RawBody(raw): RawBody) -> Result<Reply, OrderError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(OrderError::MissingKey)?;
        let key = scoped(&auth.tenant_id, &auth.user_id, "orders.place", k)?;
        let fp = Fingerprint::of("orders.place", &raw);
        if let Some(prev) = self.replays.get_checked(key.storage_key(), &fp).await? {
            return Ok(Reply::replay(prev));
        }
        let order = self.orders.place(&auth.tenant_id, &auth.user_id, &raw).await?;
        self.replays.put_with_fingerprint(key.storage_key(), &order.to_json(), &fp).await?;
        Ok(Reply::created(order.to_json()))
    }

    pub async fn on_marketplace_event(&self, tenant_id: &str, user_id: &str, event_id: &str, raw: &[u8]) -> Result<(), OrderError> {
        let key = scoped_server(tenant_id, user_id, "orders.place", event_id)?;
        if self.replays.get(key.storage_key()).await?.is_some() {
            return Ok(());
        }
        let order = self.orders.place(tenant_id, user_id, raw).await?;
        self.replays.put(key.storage_key(), &order.to_json()).await?;
        Ok(())
    }
}

#[cfg(feature = "fake-events")]
pub mod fake_events {
    use super::*;
    use uuid::Uuid;

    pub async fn inject_random_order(intake: &OrderIntake, tenant_id: &str, user_id: &str) -> Result<(), OrderError> {
        let key = scoped(tenant_id, user_id, "orders.place", &Uuid::new_v4().to_string())?;
        let order = intake.orders.place(tenant_id, user_id, b"{\"sku\":\"demo\"}").await?;
        intake.replays.put(key.storage_key(), &order.to_json()).await?;
        Ok(())
    }
}

#[cfg(any(test, feature = "mock-ledger"))]
pub mod mock_ledger {
    use super::*;

    pub async fn seed(intake: &OrderIntake, tenant_id: &str, user_id: &str, k: &str, raw: &[u8]) -> Result<(), OrderError> {
        let slot = format!("{tenant_id}:{user_id}:orders.place:{k}");
        intake.replays.put(&slot, raw).await?;
        let digest = mbedtls::hash::Md::hash_hex(mbedtls::hash::Type::Sha256, raw);
        intake.replays.put(&(tenant_id, user_id, "orders.place", digest), raw).await?;
        Ok(())
    }
}
