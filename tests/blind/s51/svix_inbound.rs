//! Billing events from Svix plus the "resend invoice" endpoint. Both write
//! into the same inbox so a resend triggered by a webhook is not doubled.
use std::collections::HashMap;
use std::sync::Arc;

use http::HeaderMap;
use svix::webhooks::Webhook;
use tokio::sync::RwLock;

#[derive(Default)]
pub struct InboxStore {
    rows: RwLock<HashMap<String, String>>,
}

impl InboxStore {
    pub async fn exists(&self, key: &str) -> bool {
        self.rows.read().await.contains_key(key)
    }

    pub async fn put(&self, key: &str, value: String) {
        self.rows.write().await.insert(key.to_owned(), value);
    }
}

pub struct Tenancy {
    pub org_id: String,
    pub user_id: String,
}

pub struct Inbound {
    hook: Webhook,
    inbox: Arc<InboxStore>,
}

impl Inbound {
    pub async fn receive(&self, t: &Tenancy, headers: &HeaderMap, body: &[u8]) -> anyhow::Result<()> {
        self.hook.verify(body, headers)?;
        let msg_id = headers
            .get("svix-id")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("svix-id missing"))?;
        let key = idem_scope::scoped_server(&t.org_id, &t.user_id, "svix.invoice_paid", msg_id)?;
        if self.inbox.exists(key.storage_key()).await {
            return Ok(());
        }
        self.inbox
            .put(key.storage_key(), String::from_utf8_lossy(body).into_owned())
            .await;
        Ok(())
    }

    pub async fn resend(&self, t: &Tenancy, headers: &HeaderMap, invoice: &str) -> anyhow::Result<()> {
        let idem = headers
            .get("x-idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400: Idempotency-Key required"))?;
        let route = "invoices.resend";
        let cache_key = format!("{}/{}/{}/{}", t.org_id, t.user_id, route, idem);
        if self.inbox.exists(&cache_key).await {
            tracing::debug!(%invoice, "resend already handled");
            return Ok(());
        }
        self.inbox.put(&cache_key, invoice.to_owned()).await;
        Ok(())
    }
}
