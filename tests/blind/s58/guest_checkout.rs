use std::sync::Arc;

use cairn::kv::Bucket;
use http::{HeaderMap, HeaderName};
use idem_scope::{scoped, scoped_server};

pub const GUEST_USER: &str = "guest";
static IDEMPOTENCY_HEADER: HeaderName = HeaderName::from_static("idempotency-key");

pub struct CheckoutService {
    replays: Arc<Bucket>,
}

pub struct StoreContext {
    pub merchant_id: String,
    pub customer_id: Option<String>,
}

impl CheckoutService {
    pub async fn place_order(&self, headers: &HeaderMap, store: &StoreContext, cart: &[u8]) -> anyhow::Result<Vec<u8>> {
        let key = headers
            .get(&IDEMPOTENCY_HEADER)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let customer_id = store.customer_id.clone().unwrap_or_else(|| GUEST_USER.to_string());
        let sk = scoped(&store.merchant_id, &customer_id, "checkout.place_order", key)?;
        if let Some(prev) = self.replays.get(sk.storage_key()).await? {
            return Ok(prev);
        }
        let receipt = format!("{{\"merchant\":\"{}\",\"items\":{}}}", store.merchant_id, cart.len());
        self.replays.put(sk.storage_key(), receipt.as_bytes()).await?;
        Ok(receipt.into_bytes())
    }

    pub async fn abandoned_cart_reminder(&self, store: &StoreContext, reminder_id: &str) -> anyhow::Result<()> {
        let Some(customer_id) = store.customer_id.as_deref() else {
            return Ok(());
        };
        let sk = scoped_server(&store.merchant_id, customer_id, "checkout.reminder", reminder_id)?;
        if self.replays.get(sk.storage_key()).await?.is_none() {
            self.replays.put(sk.storage_key(), b"sent").await?;
        }
        Ok(())
    }
}
