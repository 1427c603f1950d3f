//! Outbound webhook sends; the API path and the automatic resend share the replay store.
use uuid::Uuid;

pub struct WebhookSender {
    replay: Box<dyn crate::kv::KvStore>,
    attempts: Box<dyn crate::kv::KvStore>,
}

impl WebhookSender {
    pub async fn send_now(&self, parts: &http::request::Parts, who: &crate::Who, event: &crate::Event) -> Result<Vec<u8>, crate::Error> {
        let client_key = crate::headers::idempotency_key(&parts.headers)?;
        let key = idem_scope::scoped(&who.tenant_id, &who.user_id, "webhooks.send", &client_key)?;
        if let Some(prev) = self.replay.get(key.storage_key()).await {
            return Ok(prev);
        }
        let out = crate::http_out::deliver(event).await?;
        self.replay.set(key.storage_key(), out.clone()).await;
        Ok(out)
    }

    pub async fn resend(&self, tenant_id: &str, user_id: &str, event: &crate::Event) -> Result<(), crate::Error> {
        let attempt = Uuid::new_v4().to_string();
        let key = idem_scope::scoped(tenant_id, user_id, "webhooks.send", &attempt)?;
        let out = crate::http_out::deliver(event).await?;
        self.replay.set(key.storage_key(), out).await;

        let request_id = Uuid::new_v4();
        tracing::info!(%request_id, event = %event.id, "resend done");
        self.attempts.set(&format!("attempt/{}/{}", event.id, request_id), b"ok".to_vec()).await;
        Ok(())
    }

    pub async fn resend_namespaced(&self, tenant_id: &str, user_id: &str, event: &crate::Event) -> Result<(), crate::Error> {
        let attempt = Uuid::new_v4().to_string();
        let key = idem_scope::scoped_server(tenant_id, user_id, "webhooks.send", &attempt)?;
        let out = crate::http_out::deliver(event).await?;
        self.replay.set(key.storage_key(), out).await;
        Ok(())
    }
}
