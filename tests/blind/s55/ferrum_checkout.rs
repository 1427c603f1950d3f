use std::time::Duration;

use anyhow::{anyhow, bail, Result};
use ferrum::kv::SharedKv;
use idem_scope::scoped;
use relay::http::HeaderMap;

const LEASE: Duration = Duration::from_secs(300);

pub struct Checkout {
    kv: SharedKv,
    carts: carts::Client,
    payments: payments::Client,
}

struct PendingCheckout {
    kv: SharedKv,
    key: String,
    armed: bool,
}

impl PendingCheckout {
    fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for PendingCheckout {
    fn drop(&mut self) {
        if self.armed {
            let kv = self.kv.clone();
            let key = std::mem::take(&mut self.key);
            tokio::spawn(async move {
                let _ = kv.del(&key).await;
            });
        }
    }
}

fn client_key(headers: &HeaderMap) -> Result<&str> {
    headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow!("400 Idempotency-Key required"))
}

impl Checkout {
    pub async fn place(&self, tenant: &str, user: &str, headers: &HeaderMap, cart_id: &str) -> Result<String> {
        let sk = scoped(tenant, user, "checkout.place", client_key(headers)?)?;
        let pending = serde_json::json!({ "state": "in_progress" }).to_string();
        if !self.kv.set_nx(sk.storage_key(), &pending, LEASE).await? {
            bail!("409 checkout already in progress");
        }
        let cart = self.carts.fetch(tenant, cart_id).await?;
        if cart.items.is_empty() {
            bail!("422 cart is empty");
        }
        let receipt = self.payments.charge(tenant, user, cart.total_minor).await?;
        self.kv.set(sk.storage_key(), &serde_json::to_string(&receipt)?).await?;
        Ok(receipt.id)
    }

    pub async fn place_v2(&self, tenant: &str, user: &str, headers: &HeaderMap, cart_id: &str) -> Result<String> {
        let sk = scoped(tenant, user, "checkout.place", client_key(headers)?)?;
        let pending = serde_json::json!({ "state": "in_progress" }).to_string();
        if !self.kv.set_nx(sk.storage_key(), &pending, LEASE).await? {
            bail!("409 checkout already in progress");
        }
        let guard = PendingCheckout { kv: self.kv.clone(), key: sk.storage_key().to_owned(), armed: true };

        let cart = self.carts.fetch(tenant, cart_id).await?;
        if cart.items.is_empty() {
            bail!("422 cart is empty");
        }
        let receipt = self.payments.charge(tenant, user, cart.total_minor).await?;
        self.kv.set(sk.storage_key(), &serde_json::to_string(&receipt)?).await?;
        guard.disarm();
        Ok(receipt.id)
    }
}
