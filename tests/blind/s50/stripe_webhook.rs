//! Subscription billing: API calls from the dashboard and Stripe webhooks share the idempotency store.
use http::HeaderMap;
use idem_scope::{scoped, scoped_server, ScopedKey};
use std::collections::HashMap;
use std::sync::Mutex;
use stripe::{Event, EventObject, EventType, Webhook};

pub struct Billing {
    records: Mutex<HashMap<String, String>>,
    webhook_secret: String,
}

impl Billing {
    fn once(&self, key: &ScopedKey, f: impl FnOnce() -> String) -> String {
        let mut records = self.records.lock().unwrap();
        records.entry(key.storage_key().to_owned()).or_insert_with(f).clone()
    }

    pub fn change_plan(&self, h: &HeaderMap, account_id: &str, user_id: &str, plan: &str) -> Result<String, String> {
        let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
        let key = scoped(account_id, user_id, "billing.change_plan", k).map_err(|e| e.to_string())?;
        Ok(self.once(&key, || format!("{{\"plan\":\"{plan}\"}}")))
    }

    pub fn webhook(&self, payload: &str, sig: &str) -> Result<String, String> {
        let event: Event = Webhook::construct_event(payload, sig, &self.webhook_secret).map_err(|e| e.to_string())?;
        let account_id = event.account.clone().ok_or("connect account required")?;
        tracing::info!(event_id = %event.id, "stripe event");
        match (event.type_, &event.data.object) {
            (EventType::InvoicePaid, EventObject::Invoice(inv)) => {
                let key = scoped(&account_id, "stripe", "billing.invoice_paid", event.id.as_str()).map_err(|e| e.to_string())?;
                Ok(self.once(&key, || format!("{{\"paid\":\"{}\"}}", inv.id)))
            }
            (EventType::CustomerSubscriptionDeleted, EventObject::Subscription(sub)) => {
                let key = scoped_server(&account_id, "stripe", "billing.sub_deleted", event.id.as_str()).map_err(|e| e.to_string())?;
                Ok(self.once(&key, || format!("{{\"deleted\":\"{}\"}}", sub.id)))
            }
            _ => Ok("ignored".into()),
        }
    }
}
