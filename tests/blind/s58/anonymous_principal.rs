use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use idem_scope::scoped;
use tokio::sync::Mutex;

pub enum Principal {
    User(String),
    Anonymous,
}

impl fmt::Display for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Principal::User(id) => write!(f, "user:{}", id),
            Principal::Anonymous => f.write_str("anonymous"),
        }
    }
}

pub struct CartSession {
    pub tenant_id: String,
    pub user_id: Option<String>,
}

#[derive(Clone, Default)]
pub struct CartReplays {
    inner: Arc<Mutex<HashMap<String, Vec<u8>>>>,
}

impl CartReplays {
    pub async fn checkout(&self, headers: &http::HeaderMap, session: &CartSession, cart: Vec<u8>) -> anyhow::Result<Vec<u8>> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let principal = if let Some(id) = session.user_id.as_ref() {
            Principal::User(id.clone())
        } else {
            Principal::Anonymous
        };
        let sk = scoped(&session.tenant_id, &principal.to_string(), "carts.checkout", key)?;

        let mut map = self.inner.lock().await;
        if let Some(prev) = map.get(sk.storage_key()) {
            return Ok(prev.clone());
        }
        anyhow::ensure!(!cart.is_empty(), "empty cart");
        map.insert(sk.storage_key().to_owned(), cart.clone());
        Ok(cart)
    }

    pub async fn audit_label(&self, session: &CartSession) -> String {
        let who = session.user_id.clone().unwrap_or_default();
        format!("tenant={} user={}", session.tenant_id, who)
    }
}
