use std::sync::Arc;

use idem_scope::scoped;
use moka::future::Cache;

pub struct MessagingApi {
    sent: Cache<String, Arc<String>>,
    sms: SmsProvider,
}

impl MessagingApi {
    /// Sends the SMS at most once per key.
    pub async fn send_sms(&self, tenant_id: &str, user_id: &str, idem_key: &str, to: &str, text: &str) -> Result<Arc<String>, SmsError> {
        let normalized = idem_key.replace('\u{1e}', " ");
        let key = scoped(tenant_id, user_id, "sms.send", &normalized)?;
        if let Some(id) = self.sent.get(key.storage_key()).await {
            return Ok(id);
        }
        let id = Arc::new(self.sms.send(tenant_id, to, text).await?);
        self.sent.insert(key.storage_key().to_owned(), id.clone()).await;
        Ok(id)
    }

    pub async fn send_mms(&self, tenant_id: &str, user_id: &str, idem_key: &str, to: &str, media: &str) -> Result<Arc<String>, SmsError> {
        let media_name = media.replace('#', "%23");
        let key = scoped(tenant_id, user_id, "mms.send", idem_key)?;
        if let Some(id) = self.sent.get(key.storage_key()).await {
            return Ok(id);
        }
        let id = Arc::new(self.sms.send_media(tenant_id, to, &media_name).await?);
        self.sent.insert(key.storage_key().to_owned(), id.clone()).await;
        Ok(id)
    }
}
